// The page's comment threads beside the editor (right sidebar): a new thread on the
// selected passage, replies, edits and deletion of one's own comments, resolve and reopen.
// Open threads highlight their passages; a thread whose passage was deleted shows its
// quote and "Detached".
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Editor } from '@tiptap/core';
import { runtimeConfig } from '../config/runtimeConfig';
import { isDevelopmentMode } from '../api/devMode';
import { CommentBody } from './CommentBody';
import { deleteComment, editComment, MAX_COMMENT_CHARS, reply, setResolved, startThread, type CommentItem, type CommentThread } from './commentsApi';
import { editorChannel, passageChannel, selectionChannel, type CommentSelection } from './commentSignals';
import { useComments } from './useComments';
import { markedThreads } from './commentAnchors';
import './comments.css';

interface Props {
  pageId: number;
  userId: string | null;
}

export function CommentsPanel(props: Props) {
  if (isDevelopmentMode() || !runtimeConfig().features.comments) return null;
  return <Comments {...props} />;
}

// The range of a pending selection, kept in step with edits made while the comment is written.
function useTrackedSelection(pending: CommentSelection | null) {
  const range = useRef<{ from: number; to: number } | null>(null);
  useEffect(() => {
    if (!pending) return;
    range.current = { from: pending.from, to: pending.to };
    const follow = ({ transaction }: { transaction: { docChanged: boolean; mapping: { map: (pos: number, assoc?: number) => number } } }) => {
      if (!transaction.docChanged || !range.current) return;
      range.current = { from: transaction.mapping.map(range.current.from, 1), to: transaction.mapping.map(range.current.to, -1) };
    };
    pending.editor.on('transaction', follow);
    return () => {
      pending.editor.off('transaction', follow);
    };
  }, [pending]);
  return range;
}

/** The thread a link names (`?thread=12`, as the mention mails send), once. */
function linkedThread(): number | null {
  if (typeof window === 'undefined') return null;
  const id = Number(new URLSearchParams(window.location.search).get('thread'));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

function Comments({ pageId, userId }: Props) {
  const { threads, canComment, refresh } = useComments(pageId, true);
  const [editor, setEditor] = useState<Editor | null>(null);
  const [anchored, setAnchored] = useState<Set<number> | null>(null);
  const [pending, setPending] = useState<CommentSelection | null>(null);
  const [active, setActive] = useState<number | null>(null);
  const range = useTrackedSelection(pending);
  const linked = useRef(linkedThread());
  const [showResolved, setShowResolved] = useState(false);

  useEffect(() => editorChannel.on(setEditor), []);
  useEffect(() => selectionChannel.on((selection) => {
    setEditor(selection.editor);
    setPending(selection);
  }), []);
  useEffect(() => passageChannel.on((ids) => {
    setActive(ids[0] ?? null);
    document.getElementById(`comment-thread-${ids[0]}`)?.scrollIntoView?.({ block: 'nearest' });
  }), []);

  // a linked thread: shown (resolved ones too) and scrolled to once the threads are in
  useEffect(() => {
    const id = linked.current;
    const thread = id === null ? undefined : threads.find((t) => t.id === id);
    if (!thread) return;
    linked.current = null;
    if (thread.resolved) setShowResolved(true);
    setActive(thread.id);
    requestAnimationFrame(() => document.getElementById(`comment-thread-${thread.id}`)?.scrollIntoView?.({ block: 'center' }));
  }, [threads]);

  // which threads the open document still marks (a detached thread's text is gone)
  useEffect(() => {
    if (!editor) return;
    const update = () => setAnchored(markedThreads(editor.state.doc));
    update();
    editor.on('update', update);
    return () => {
      editor.off('update', update);
    };
  }, [editor]);

  useEffect(() => {
    if (!editor) return;
    const open = new Set(threads.filter((t) => !t.resolved).map((t) => t.id));
    if (!editor.isDestroyed) editor.commands.setCommentHighlight({ open, active });
  }, [editor, threads, active]);

  const create = async (body: string) => {
    if (!pending) return;
    const answer = await startThread(pageId, body, pending.quote);
    const target = range.current;
    const { editor: e } = pending;
    if (target && target.from < target.to && !e.isDestroyed) {
      e.view.dispatch(e.state.tr.addMark(target.from, target.to, e.schema.marks.comment!.create({ thread_id: answer.thread.id })));
    }
    setPending(null);
    setActive(answer.thread.id);
    refresh();
  };

  const open = threads.filter((t) => !t.resolved);
  const resolved = threads.filter((t) => t.resolved);
  const detached = (t: CommentThread) => (anchored ? !anchored.has(t.id) : t.detached);
  const threadProps = { userId, canComment, pageId, onChanged: refresh, detached };

  return (
    <section className="comments-panel" aria-labelledby="comments-panel-title">
      <h2 id="comments-panel-title" className="comments-panel__title">Comments</h2>
      {pending && (
        <div className="comment-thread comment-thread--new">
          <blockquote className="comment-thread__quote">{pending.quote}</blockquote>
          <CommentForm label="New comment" submitLabel="Comment" autoFocus onSubmit={create} onCancel={() => setPending(null)} />
        </div>
      )}
      {!threads.length && !pending && <p className="muted comments-panel__empty">No comments yet.</p>}
      {open.map((t) => (
        <ThreadView key={t.id} thread={t} active={active === t.id} onActivate={() => setActive(t.id)} {...threadProps} />
      ))}
      {resolved.length > 0 && (
        <details className="comments-panel__resolved" open={showResolved}
          onToggle={(e) => setShowResolved((e.target as HTMLDetailsElement).open)}>
          <summary>Resolved ({resolved.length})</summary>
          {resolved.map((t) => (
            <ThreadView key={t.id} thread={t} active={active === t.id} onActivate={() => setActive(t.id)} {...threadProps} />
          ))}
        </details>
      )}
    </section>
  );
}

interface ThreadProps {
  thread: CommentThread;
  userId: string | null;
  canComment: boolean;
  pageId: number;
  active: boolean;
  onActivate: () => void;
  onChanged: () => void;
  detached: (thread: CommentThread) => boolean;
}

function ThreadView({ thread, userId, canComment, pageId, active, onActivate, onChanged, detached }: ThreadProps) {
  const first = thread.comments[0];
  const isDetached = detached(thread);
  const toggle = async (resolved: boolean) => {
    if (!first) return;
    await setResolved(first.id, resolved);
    onChanged();
  };
  return (
    <article id={`comment-thread-${thread.id}`} className={`comment-thread${active ? ' is-active' : ''}${thread.resolved ? ' is-resolved' : ''}`}
      data-thread-id={thread.id} aria-label={`Comments on “${thread.quote || 'the page'}”`} onFocusCapture={onActivate} onClick={onActivate}>
      {(thread.quote || isDetached) && (
        <p className="comment-thread__context">
          {thread.quote && <q className="comment-thread__quote">{thread.quote}</q>}
          {isDetached && <span className="comment-thread__detached" title="The commented text was deleted">Detached</span>}
        </p>
      )}
      <ul className="comment-thread__comments">
        {thread.comments.map((c) => (
          <li key={c.id}><CommentView comment={c} mine={!!userId && c.author.id === userId && canComment} onChanged={onChanged} /></li>
        ))}
      </ul>
      {thread.resolved && thread.resolved_by && <p className="muted comment-thread__status">Resolved by {thread.resolved_by.name}</p>}
      {canComment && (
        <div className="comment-thread__actions">
          {!thread.resolved && <CommentForm label="Reply" submitLabel="Reply" compact onSubmit={async (body) => {
            await reply(pageId, thread.id, body);
            onChanged();
          }} />}
          <button type="button" className="button button--small" onClick={() => void toggle(!thread.resolved)}>
            {thread.resolved ? 'Reopen' : 'Resolve'}
          </button>
        </div>
      )}
    </article>
  );
}

function CommentView({ comment, mine, onChanged }: { comment: CommentItem; mine: boolean; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  return (
    <div className="comment" data-comment-id={comment.id}>
      <p className="comment__meta">
        <strong>{comment.author.name}</strong>{' '}
        <time dateTime={comment.created_at}>{new Date(comment.created_at).toLocaleString()}</time>
        {comment.edited_at && <span className="muted"> (edited)</span>}
      </p>
      {editing ? (
        <CommentForm label="Edit comment" submitLabel="Save" initial={comment.body} autoFocus onCancel={() => setEditing(false)}
          onSubmit={async (body) => {
            await editComment(comment.id, body);
            setEditing(false);
            onChanged();
          }} />
      ) : (
        <CommentBody body={comment.body} />
      )}
      {mine && !editing && (
        <div className="comment__tools">
          <button type="button" className="link-button" onClick={() => setEditing(true)}>Edit</button>
          <button type="button" className="link-button" onClick={async () => {
            if (!window.confirm('Delete this comment?')) return;
            await deleteComment(comment.id);
            onChanged();
          }}>Delete</button>
        </div>
      )}
    </div>
  );
}

interface FormProps {
  label: string;
  submitLabel: string;
  initial?: string;
  autoFocus?: boolean;
  compact?: boolean;
  onSubmit: (body: string) => Promise<void>;
  onCancel?: () => void;
}

function CommentForm({ label, submitLabel, initial = '', autoFocus, compact, onSubmit, onCancel }: FormProps) {
  const [body, setBody] = useState(initial);
  const [busy, setBusy] = useState(false);
  const tooLong = [...body].length > MAX_COMMENT_CHARS;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!body.trim() || tooLong || busy) return;
    setBusy(true);
    try {
      await onSubmit(body.trim());
      setBody('');
    } catch {
      // the API client has shown the error; the text stays for another try
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className={`comment-form${compact ? ' comment-form--compact' : ''}`} onSubmit={(e) => void submit(e)}>
      <textarea aria-label={label} value={body} rows={compact ? 1 : 3} autoFocus={autoFocus}
        onChange={(e) => setBody(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) void submit(e);
          if (e.key === 'Escape' && onCancel) onCancel();
        }} />
      {tooLong && <p className="field__error" role="alert">A comment must be at most {MAX_COMMENT_CHARS} characters</p>}
      <div className="comment-form__buttons">
        <button type="submit" className="button button--primary button--small" disabled={busy || !body.trim() || tooLong}>{submitLabel}</button>
        {onCancel && <button type="button" className="button button--small" onClick={onCancel}>Cancel</button>}
      </div>
    </form>
  );
}
