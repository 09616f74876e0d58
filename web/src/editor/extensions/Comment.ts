// The passage a comment thread is about (core/ydoc/schema.json `comment`): a mark naming
// the thread. Threads may overlap. The mark itself has no look: a decoration highlights
// the passages of open threads (a resolved thread's mark stays in the document, unseen),
// and a click on one tells the comments panel which threads it belongs to.
import { Extension, Mark, mergeAttributes } from '@tiptap/core';
import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import type { Node as PmNode } from '@tiptap/pm/model';
import { tiptapAttributes } from '../schema';
import { editorChannel, passageChannel } from '../../comments/commentSignals';
import { threadIdOf, type CommentHighlight } from '../../comments/commentAnchors';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    commentHighlighting: { setCommentHighlight: (highlight: CommentHighlight) => ReturnType };
  }
}

const key = new PluginKey<{ highlight: CommentHighlight; decorations: DecorationSet }>('commentHighlight');
const NONE: CommentHighlight = { open: new Set(), active: null };

function decorate(doc: PmNode, highlight: CommentHighlight): DecorationSet {
  if (!highlight.open.size) return DecorationSet.empty;
  const decorations: Decoration[] = [];
  doc.descendants((node, pos) => {
    if (!node.isText) return;
    const ids = node.marks.filter((m) => m.type.name === 'comment').map((m) => threadIdOf(m.attrs.thread_id));
    const open = ids.filter((id): id is number => id !== null && highlight.open.has(id));
    if (!open.length) return;
    const active = highlight.active !== null && open.includes(highlight.active);
    decorations.push(Decoration.inline(pos, pos + node.nodeSize, { class: active ? 'comment-highlight comment-highlight--active' : 'comment-highlight' }));
  });
  return DecorationSet.create(doc, decorations);
}

function threadsAt(state: EditorState, pos: number): number[] {
  const $pos = state.doc.resolve(pos);
  const marks = [...($pos.nodeAfter?.marks ?? []), ...($pos.nodeBefore?.marks ?? [])];
  const ids = marks.filter((m) => m.type.name === 'comment').map((m) => threadIdOf(m.attrs.thread_id));
  return [...new Set(ids.filter((id): id is number => id !== null))];
}

export const CommentMark = Mark.create({
  name: 'comment',
  inclusive: false,
  excludes: '',
  addAttributes() {
    return tiptapAttributes('comment');
  },
  parseHTML() {
    return [{ tag: 'span[data-thread-id]' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['span', mergeAttributes({ class: 'comment-mark' }, HTMLAttributes), 0];
  },
});

export const CommentHighlighting = Extension.create({
  name: 'commentHighlighting',
  onCreate() {
    editorChannel.emit(this.editor);
  },
  onDestroy() {
    editorChannel.emit(null);
  },
  addCommands() {
    return {
      setCommentHighlight: (highlight) => ({ tr, dispatch }) => {
        if (dispatch) tr.setMeta(key, highlight).setMeta('addToHistory', false);
        return true;
      },
    };
  },
  addProseMirrorPlugins() {
    return [
      new Plugin({
        key,
        state: {
          init: (_, state) => ({ highlight: NONE, decorations: decorate(state.doc, NONE) }),
          apply: (tr, value, _old, state) => {
            const highlight = (tr.getMeta(key) as CommentHighlight | undefined) ?? value.highlight;
            if (highlight === value.highlight && !tr.docChanged) return value;
            return { highlight, decorations: decorate(state.doc, highlight) };
          },
        },
        props: {
          decorations: (state) => key.getState(state)?.decorations,
          handleClick: (view, pos) => {
            const ids = threadsAt(view.state, pos);
            if (ids.length) passageChannel.emit(ids);
            return false;
          },
        },
      }),
    ];
  },
});
