// What the editor, the collaboration socket and the comments panel tell each other about
// comments, without holding references to each other: the editor that is open, a
// selection to comment on, a click on a commented passage, and "the page's comments
// changed" (a stateless message from the collaboration socket).
import type { Editor } from '@tiptap/core';

export interface CommentSelection {
  editor: Editor;
  from: number;
  to: number;
  quote: string;
}

type Listener<T> = (value: T) => void;

function channel<T>() {
  const listeners = new Set<Listener<T>>();
  return {
    on(listener: Listener<T>): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(value: T) {
      listeners.forEach((listener) => listener(value));
    },
    get listening() {
      return listeners.size > 0;
    },
  };
}

/** The editor showing a page (null when it goes away). */
export const editorChannel = channel<Editor | null>();
/** "Comment" pressed in the formatting menu. */
export const selectionChannel = channel<CommentSelection>();
/** A commented passage clicked: its thread ids. */
export const passageChannel = channel<number[]>();
/** The page's comments changed elsewhere (page id). */
export const changedChannel = channel<number>();

/** A stateless message of the collaboration socket: `{"type":"comments","page_id":12}`. */
export function onStatelessPayload(payload: string): void {
  let message: unknown;
  try {
    message = JSON.parse(payload);
  } catch {
    return;
  }
  const m = message as { type?: unknown; page_id?: unknown };
  if (m?.type === 'comments' && typeof m.page_id === 'number') changedChannel.emit(m.page_id);
}
