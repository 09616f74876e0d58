// Local placeholders for images being uploaded (spec section 4): a widget decoration,
// so other editors never see a half-uploaded image; it follows edits until removed.
import { Extension } from '@tiptap/core';
import { Plugin, PluginKey, type EditorState, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';

export const uploadPlaceholderKey = new PluginKey<DecorationSet>('uploadPlaceholder');

type Meta = { add: { id: string; pos: number } } | { remove: { id: string } };

function placeholderElement(): HTMLElement {
  const el = document.createElement('div');
  el.className = 'image-placeholder';
  el.setAttribute('role', 'status');
  el.textContent = 'Uploading image...';
  return el;
}

export const UploadPlaceholder = Extension.create({
  name: 'uploadPlaceholder',
  addProseMirrorPlugins() {
    return [
      new Plugin<DecorationSet>({
        key: uploadPlaceholderKey,
        state: {
          init: () => DecorationSet.empty,
          apply(tr, set) {
            let next = set.map(tr.mapping, tr.doc);
            const meta = tr.getMeta(uploadPlaceholderKey) as Meta | undefined;
            if (meta && 'add' in meta) {
              next = next.add(tr.doc, [Decoration.widget(meta.add.pos, placeholderElement, { id: meta.add.id, side: -1 })]);
            } else if (meta && 'remove' in meta) {
              next = next.remove(next.find(undefined, undefined, (spec) => spec.id === meta.remove.id));
            }
            return next;
          },
        },
        props: {
          decorations: (state) => uploadPlaceholderKey.getState(state),
        },
      }),
    ];
  },
});

export function addPlaceholder(tr: Transaction, id: string, pos: number): Transaction {
  return tr.setMeta(uploadPlaceholderKey, { add: { id, pos } });
}

export function removePlaceholder(tr: Transaction, id: string): Transaction {
  return tr.setMeta(uploadPlaceholderKey, { remove: { id } });
}

/** Where the placeholder is now, or null when its surroundings were deleted. */
export function placeholderPos(state: EditorState, id: string): number | null {
  const found = uploadPlaceholderKey.getState(state)?.find(undefined, undefined, (spec) => spec.id === id);
  return found?.length ? found[0]!.from : null;
}
