// Every change of a page is kept locally in encoded form (Yjs update, base64), so a
// failed content load can still show the last copy (spec section 4).
import * as Y from 'yjs';
import { fromBase64, toBase64 } from './bytes';

const key = (pageId: number) => `page-cache:${pageId}`;

export function readCachedPage(pageId: number): Uint8Array | null {
  try {
    const text = localStorage.getItem(key(pageId));
    return text ? fromBase64(text) : null;
  } catch {
    return null;
  }
}

export function writeCachedPage(pageId: number, doc: Y.Doc): void {
  try {
    localStorage.setItem(key(pageId), toBase64(Y.encodeStateAsUpdate(doc)));
  } catch {
    // storage full or unavailable: the server copy is the real one anyway
  }
}

/**
 * Caches the document after each burst of changes, and at once when the tab is hidden
 * or closed (a reload inside the burst would lose the last change); returns the stop
 * function.
 */
export function cacheChanges(pageId: number, doc: Y.Doc, delayMs = 500): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer === undefined) return;
    clearTimeout(timer);
    timer = undefined;
    writeCachedPage(pageId, doc);
  };
  const onUpdate = () => {
    clearTimeout(timer);
    timer = setTimeout(flush, delayMs);
  };
  const onHidden = () => {
    if (document.visibilityState === 'hidden') flush();
  };
  doc.on('update', onUpdate);
  window.addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', onHidden);
  return () => {
    doc.off('update', onUpdate);
    window.removeEventListener('pagehide', flush);
    document.removeEventListener('visibilitychange', onHidden);
    flush();
  };
}
