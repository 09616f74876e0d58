// Drawing canvas (spec section 3): Excalidraw, loaded lazily by DrawingView; its
// scene is the `store` attribute (JSON text), one per document (OneDrawing); `users`
// lists who drew on it (JSON text of cursor names, see views/drawingScene.ts).
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

export interface DrawingOptions {
  /** this editor's cursor name, added to `users` when it saves the drawing */
  userName: string;
}

export const Drawing = Node.create<DrawingOptions>({
  name: 'drawing',
  addOptions() {
    return { userName: 'Guest' };
  },
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
