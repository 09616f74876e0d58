// YouTube video (spec sections 3 and 5): stored as the embed address.
import { Node, mergeAttributes } from '@tiptap/core';
import { tiptapAttributes } from '../schema';
import { youtubeEmbed } from '../rules/videoRule';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    video: { setVideo: (url: string) => ReturnType };
  }
}

export const Video = Node.create({
  name: 'video',
  group: 'block',
  atom: true,
  draggable: true,
  addAttributes() {
    const attrs = tiptapAttributes('video');
    attrs.src!.parseHTML = (el) => el.getAttribute('src') ?? el.querySelector('iframe')?.getAttribute('src') ?? null;
    attrs.src!.renderHTML = () => ({});
    return attrs;
  },
  parseHTML() {
    return [{ tag: 'div[data-video]' }, { tag: 'iframe[src*="youtube.com/embed/"]' }];
  },
  renderHTML({ node, HTMLAttributes }) {
    const check = youtubeEmbed(String(node.attrs.src ?? ''));
    const src = 'src' in check ? check.src : 'about:blank';
    return ['div', mergeAttributes({ 'data-video': '', class: 'editor-video' }, HTMLAttributes),
      ['iframe', { src, title: 'YouTube video', allowfullscreen: 'true', loading: 'lazy', referrerpolicy: 'strict-origin-when-cross-origin', sandbox: 'allow-scripts allow-same-origin allow-presentation' }]];
  },
  addCommands() {
    return {
      setVideo:
        (url) =>
        ({ commands }) => {
          const check = youtubeEmbed(url);
          return 'src' in check && commands.insertContent({ type: this.name, attrs: { src: check.src } });
        },
    };
  },
});
