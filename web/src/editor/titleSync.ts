// The page title follows the first non-empty line of the page (spec section 4), sent
// 2000 ms after the last local change; a failure shows 'Failed to update page title'.
import type { Editor } from '@tiptap/core';
import type { Node as PmNode } from '@tiptap/pm/model';
import { syncPageName } from '../api/pagesApi';
import { showToast } from '../toast/toastStore';
import { EDITOR_MSG, TITLE_SYNC_DEBOUNCE_MS } from './rules/editorMessages';

/** The first text block with text, trimmed and with whitespace collapsed; null if none. */
export function firstLine(doc: PmNode): string | null {
  let found: string | null = null;
  doc.descendants((node) => {
    if (found !== null) return false;
    if (!node.isTextblock) return true;
    const text = node.textContent.replace(/\s+/g, ' ').trim();
    if (text) found = text.slice(0, 255);
    return false;
  });
  return found;
}

/** Starts syncing; returns the stop function. Only local edits start the timer. */
export function syncTitle(editor: Editor, pageId: number, currentName: () => string | undefined, onRenamed: (name: string) => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onUpdate = ({ transaction }: { transaction: { getMeta: (key: string) => unknown } }) => {
    if (transaction.getMeta('y-sync$')) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      const name = firstLine(editor.state.doc);
      if (!name || name === currentName()) return;
      syncPageName(pageId, name).then(
        () => onRenamed(name),
        () => showToast({ title: EDITOR_MSG.titleFailed, text: EDITOR_MSG.titleFailedText, type: 'error' }),
      );
    }, TITLE_SYNC_DEBOUNCE_MS);
  };
  editor.on('update', onUpdate);
  return () => {
    clearTimeout(timer);
    editor.off('update', onUpdate);
  };
}
