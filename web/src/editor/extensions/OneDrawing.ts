// Refuses any change (typed, pasted or remote-free local) that would make a second drawing.
import { Extension } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { drawingChangeAllowed } from '../rules/drawingRule';

export const OneDrawing = Extension.create({
  name: 'oneDrawing',
  addProseMirrorPlugins() {
    return [
      new Plugin({
        key: new PluginKey('oneDrawing'),
        // remote (y-sync) transactions are never refused: the document must converge
        filterTransaction: (tr, state) => !tr.docChanged || !!tr.getMeta('y-sync$') || drawingChangeAllowed(state.doc, tr.doc),
      }),
    ];
  },
});
