// Spec sections 5 and 9: one drawing canvas per document at most.
interface NodeLike {
  type: { name: string } | string;
  descendants?: (fn: (node: NodeLike) => boolean | void) => void;
  /** JSON children (a ProseMirror node has a Fragment here and uses descendants) */
  content?: unknown;
}

const nameOf = (node: NodeLike) => (typeof node.type === 'string' ? node.type : node.type.name);

/** Drawing nodes in a ProseMirror node or its JSON. */
export function countDrawings(doc: NodeLike): number {
  let count = 0;
  if (doc.descendants) {
    doc.descendants((node) => {
      if (nameOf(node) === 'drawing') count += 1;
    });
    return count;
  }
  const walk = (node: NodeLike) => {
    if (nameOf(node) === 'drawing') count += 1;
    if (Array.isArray(node.content)) (node.content as NodeLike[]).forEach(walk);
  };
  walk(doc);
  return count;
}

export function canAddDrawing(doc: NodeLike): boolean {
  return countDrawings(doc) === 0;
}

/** A change is refused when it raises the drawing count above one. */
export function drawingChangeAllowed(before: NodeLike, after: NodeLike): boolean {
  const count = countDrawings(after);
  return count <= 1 || count <= countDrawings(before);
}
