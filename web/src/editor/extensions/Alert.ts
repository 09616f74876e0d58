// Alert block (spec section 3): error, warning, success or info (the default).
import { Node, mergeAttributes } from '@tiptap/core';
import { ALERT_TYPES, tiptapAttributes } from '../schema';

export type AlertType = (typeof ALERT_TYPES)[number];

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    alert: { setAlert: (type?: AlertType) => ReturnType };
  }
}

export const Alert = Node.create({
  name: 'alert',
  group: 'block',
  content: 'block+',
  defining: true,
  addAttributes() {
    const attrs = tiptapAttributes('alert');
    // the type is also the visible class, so it round-trips through copied HTML
    attrs.type!.parseHTML = (el) => el.getAttribute('data-type') ?? 'info';
    attrs.type!.renderHTML = (a) => ({ 'data-type': String(a.type), class: `alert alert--${String(a.type)}`, role: 'note' });
    return attrs;
  },
  parseHTML() {
    return [{ tag: 'div[data-alert]' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['div', mergeAttributes({ 'data-alert': '' }, HTMLAttributes), 0];
  },
  addCommands() {
    return {
      setAlert:
        (type = 'info') =>
        ({ commands }) =>
          commands.wrapIn(this.name, { type }),
    };
  },
});
