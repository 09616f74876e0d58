// Thread ids carried by `comment` marks. Type imports only: the comments panel stays out
// of the editor's lazy chunk.
import type { Node as PmNode } from '@tiptap/pm/model';

export function threadIdOf(value: unknown): number | null {
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** Thread ids marked in a document. */
export function markedThreads(doc: PmNode): Set<number> {
  const out = new Set<number>();
  doc.descendants((node) => {
    for (const mark of node.marks) {
      if (mark.type.name !== 'comment') continue;
      const id = threadIdOf(mark.attrs.thread_id);
      if (id !== null) out.add(id);
    }
  });
  return out;
}

/** Open and active threads, as the editor highlights them. */
export interface CommentHighlight {
  open: ReadonlySet<number>;
  active: number | null;
}
