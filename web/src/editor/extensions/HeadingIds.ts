// Gives headings the ids the table of contents links to (heading-1, heading-2, ...),
// as decorations so the ids never enter the shared document.
import { Extension } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';
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

export const HeadingIds = Extension.create({
  name: 'headingIds',
  addProseMirrorPlugins() {
    return [
      new Plugin({
        key: new PluginKey('headingIds'),
        props: {
          decorations(state) {
            const decorations: Decoration[] = [];
            let index = 0;
            state.doc.descendants((node, pos) => {
              if (node.type.name !== 'heading') return true;
              index += 1;
              decorations.push(Decoration.node(pos, pos + node.nodeSize, { id: `heading-${index}` }));
              return false;
            });
            return DecorationSet.create(state.doc, decorations);
          },
        },
      }),
    ];
  },
});
