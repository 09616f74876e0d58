// The page's history (right sidebar, "History"): versions newest first with authors and
// labels; the chosen one shown read-only against the current page (what is only in the
// version is marked as added, what only the current page has as removed); Restore asks first.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Modal } from '../components/Modal';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { diffWithCurrent, listHistory, restoreVersion, type DiffBlock, type PageVersion, type PmNode, type VersionDiff } from '../api/historyApi';

function textOf(node: PmNode): string {
  if (node.type === 'text') return node.text ?? '';
  if (node.type === 'hardBreak') return '\n';
  return (node.content ?? []).map(textOf).join(node.content?.some((c) => c.type !== 'text' && c.type !== 'hardBreak') ? '\n' : '');
}

function authorsOf(version: PageVersion): string {
  if (version.authors.length === 0) return 'No recorded author';
  return version.authors.map((a) => a.name || `User ${a.id}`).join(', ');
}

// One block of the version, read-only: its text with the block's kind kept visible
// (a heading reads as one, code keeps its lines).
function Block({ node, children }: { node: PmNode; children: ReactNode }) {
  const kind = `history-diff__block history-diff__block--${node.type}`;
  if (node.type === 'codeBlock') return <pre className={kind}>{children}</pre>;
  return <p className={kind}>{children}</p>;
}

export function DiffView({ diff }: { diff: VersionDiff }) {
  const block = (b: DiffBlock, key: number) => {
    if (b.change === 'changed') {
      return (
        <Block key={key} node={b.after}>
          {b.text.map((run, i) => run.op === 'insert' ? <ins key={i}>{run.text}</ins> : run.op === 'delete' ? <del key={i}>{run.text}</del> : <span key={i}>{run.text}</span>)}
        </Block>
      );
    }
    const text = textOf(b.block);
    if (b.change === 'added') return <Block key={key} node={b.block}><ins>{text}</ins></Block>;
    if (b.change === 'removed') return <Block key={key} node={b.block}><del>{text}</del></Block>;
    return <Block key={key} node={b.block}>{text}</Block>;
  };
  return (
    <div className="history-diff" role="group" aria-label="Version compared with the current page">
      <p className="muted history-diff__legend">
        {diff.added + diff.changed + diff.removed === 0 ? 'Same as the current page.' : `Against the current page: ${diff.added} added, ${diff.changed} changed, ${diff.removed} removed blocks. Underlined text is only in this version; struck-through text is only in the current page.`}
      </p>
      {diff.blocks.map(block)}
    </div>
  );
}

interface Props {
  pageId: number;
  canRestore: boolean;
  onClose: () => void;
}

export function HistoryPanel({ pageId, canRestore, onClose }: Props) {
  const [versions, setVersions] = useState<PageVersion[] | null>(null);
  const [cursor, setCursor] = useState<number | null>(null);
  const [selected, setSelected] = useState<PageVersion | null>(null);
  const [diff, setDiff] = useState<VersionDiff | 'failed' | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [status, setStatus] = useState('');
  const statusLine = useRef<HTMLParagraphElement>(null);

  const load = (from: number | null) =>
    listHistory(pageId, from).then((page) => {
      setVersions((current) => [...(from ? current ?? [] : []), ...page.versions]);
      setCursor(page.next_cursor);
    }).catch(() => {
      setVersions((current) => current ?? []);
      setStatus('The history could not be loaded.');
    });

  useEffect(() => {
    void load(null);
  }, [pageId]);

  useEffect(() => {
    if (!selected) return;
    let live = true;
    setDiff(null);
    diffWithCurrent(pageId, selected.id).then((d) => live && setDiff(d)).catch(() => live && setDiff('failed'));
    return () => {
      live = false;
    };
  }, [pageId, selected]);

  const restore = async () => {
    if (!selected) return;
    setConfirming(false);
    try {
      await restoreVersion(pageId, selected.id);
      setStatus(`Restored the version of ${new Date(selected.created_at).toLocaleString()}.`);
      setSelected(null);
      void load(null);
    } catch {
      setStatus('The version could not be restored.');
    }
    // The Restore button is gone (or was the dialog's): keep focus inside the panel.
    statusLine.current?.focus();
  };

  return (
    <>
      <Modal title="Page history" onClose={onClose} className="modal--history" closeOnEscape={!confirming}>
        <p role="status" className="muted" ref={statusLine} tabIndex={-1}>{status}</p>
        <div className="history-panel">
          <nav aria-label="Versions" className="history-panel__list">
            {versions === null ? <p className="muted">Loading versions...</p> : versions.length === 0 ? <p className="muted">No versions yet.</p> : (
              <ul>
                {versions.map((v) => (
                  <li key={v.id}>
                    <button type="button" className="history-panel__version" aria-pressed={selected?.id === v.id} onClick={() => setSelected(v)}>
                      <span className="history-panel__time">{new Date(v.created_at).toLocaleString()}</span>
                      <span className="history-panel__authors">{authorsOf(v)}</span>
                      {v.label && <span className="history-panel__label">{v.label}</span>}
                    </button>
                  </li>
                ))}
              </ul>
            )}
            {cursor !== null && <button type="button" className="button button--ghost" onClick={() => void load(cursor)}>Older versions</button>}
          </nav>
          <section className="history-panel__view" aria-label="Chosen version">
            {!selected ? <p className="muted">Choose a version to see it against the current page.</p> : (
              <>
                <h3 className="history-panel__heading">
                  {new Date(selected.created_at).toLocaleString()}{selected.label ? ` · ${selected.label}` : ''}
                </h3>
                {diff === 'failed' ? <p className="muted">The version could not be loaded.</p> : diff ? <DiffView diff={diff} /> : <p className="muted">Loading the version...</p>}
                {canRestore && (
                  <div className="modal__actions">
                    <button type="button" className="button button--primary" onClick={() => setConfirming(true)}>Restore this version</button>
                  </div>
                )}
              </>
            )}
          </section>
        </div>
      </Modal>
      {confirming && selected && (
        <ConfirmDialog title="Restore version" confirmLabel="Restore"
          text={`Make the page equal to the version of ${new Date(selected.created_at).toLocaleString()}? Everyone editing sees it at once; the current page is kept in the history, so this can be undone.`}
          onClose={() => setConfirming(false)} onConfirm={() => void restore()} />
      )}
    </>
  );
}
