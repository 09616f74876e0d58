// Drawing canvas (spec section 3): Excalidraw, loaded lazily by DrawingView; its
// scene is the `store` attribute (JSON text), one per document (OneDrawing).
import { Node, mergeAttributes } from '@tiptap/core';
import { ReactNodeViewRenderer } from '@tiptap/react';
import { tiptapAttributes } from '../schema';
import { canAddDrawing } from '../rules/drawingRule';
import { DrawingView } from '../views/DrawingView';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    drawing: { insertDrawing: () => ReturnType };
  }
}

export const Drawing = Node.create({
  name: 'drawing',
  group: 'block',
  atom: true,
  addAttributes() {
    return tiptapAttributes('drawing');
  },
  parseHTML() {
    return [{ tag: 'div[data-drawing]' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['div', mergeAttributes({ 'data-drawing': '' }, HTMLAttributes)];
  },
  addNodeView() {
    return ReactNodeViewRenderer(DrawingView);
  },
  addCommands() {
    return {
      insertDrawing:
        () =>
        ({ state, commands }) =>
          canAddDrawing(state.doc) && commands.insertContent({ type: this.name }),
    };
  },
});
