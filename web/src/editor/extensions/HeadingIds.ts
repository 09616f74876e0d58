// Gives headings the ids the table of contents links to (heading-1, heading-2, ...),
// as decorations so the ids never enter the shared document. Rebuilt only when a change
// touches a heading; otherwise mapped, so typing in a long page stays O(change).
import { Extension } from '@tiptap/core';
import { Plugin, PluginKey, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import type { Node as PmNode } from '@tiptap/pm/model';
import type { Heading } from '../../projectView/headings';

export function headingsOf(doc: PmNode): Heading[] {
  const out: Heading[] = [];
  let index = 0;
  doc.descendants((node) => {
    if (node.type.name !== 'heading') return true;
    index += 1;
    const text = node.textContent.trim();
    if (text) out.push({ id: `heading-${index}`, text, level: Number(node.attrs.level) || 1 });
    return false;
  });
  return out;
}

function build(doc: PmNode): DecorationSet {
  const decorations: Decoration[] = [];
  let index = 0;
  doc.descendants((node, pos) => {
    if (node.type.name !== 'heading') return true;
    index += 1;
    decorations.push(Decoration.node(pos, pos + node.nodeSize, { id: `heading-${index}` }));
    return false;
  });
  return DecorationSet.create(doc, decorations);
}

function hasHeading(doc: PmNode, from: number, to: number): boolean {
  let found = false;
  doc.nodesBetween(Math.max(0, from), Math.min(doc.content.size, to), (node) => {
    if (node.type.name === 'heading') found = true;
    return !found;
  });
  return found;
}

/** Whether a change added, removed or retyped a heading (then the numbering moves). */
export function touchesHeadings(tr: Transaction): boolean {
  let touched = false;
  tr.mapping.maps.forEach((map, i) => {
    const before = tr.docs[i] ?? tr.before;
    const after = tr.docs[i + 1] ?? tr.doc;
    map.forEach((oldStart, oldEnd, newStart, newEnd) => {
      if (touched) return;
      touched = hasHeading(before, oldStart, oldEnd) || hasHeading(after, newStart, newEnd);
    });
  });
  return touched;
}

export const HeadingIds = Extension.create({
  name: 'headingIds',
  addProseMirrorPlugins() {
    const key = new PluginKey<DecorationSet>('headingIds');
    return [
      new Plugin<DecorationSet>({
        key,
        state: {
          init: (_, state) => build(state.doc),
          apply: (tr, set) => (!tr.docChanged ? set : touchesHeadings(tr) ? build(tr.doc) : set.map(tr.mapping, tr.doc)),
        },
        props: { decorations: (state) => key.getState(state) },
      }),
    ];
  },
});
