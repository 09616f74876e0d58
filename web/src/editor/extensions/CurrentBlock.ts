// Marks the top-level block that holds the caret. Blocks skip layout while off screen
// (content-visibility: auto, editor.css), and Chrome decides that a frame after a block
// appears: a key typed into a block made that instant (Enter, a slash command) landed
// before the caret ('Third' became 'hirdT'). The marked block always lays out.
import { Extension } from '@tiptap/core';
import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';

export const CURRENT_BLOCK_CLASS = 'is-current-block';

export function currentBlockDecorations(state: EditorState): DecorationSet {
  const { $head } = state.selection;
  if ($head.depth < 1) {
    // a node selection of a top-level block (an image, a drawing): that block
    const at = state.selection.from;
    const node = state.doc.nodeAt(at);
    if (!node) return DecorationSet.empty;
    return DecorationSet.create(state.doc, [Decoration.node(at, at + node.nodeSize, { class: CURRENT_BLOCK_CLASS })]);
  }
  const from = $head.before(1);
  return DecorationSet.create(state.doc, [Decoration.node(from, from + $head.node(1).nodeSize, { class: CURRENT_BLOCK_CLASS })]);
}

export const CurrentBlock = Extension.create({
  name: 'currentBlock',
  addProseMirrorPlugins() {
    return [new Plugin({ key: new PluginKey('currentBlock'), props: { decorations: currentBlockDecorations } })];
  },
});
