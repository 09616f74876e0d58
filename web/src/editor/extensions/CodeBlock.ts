// Code block (spec sections 3 and 4): the schema's `language` and `git_url`, highlighted
// by codeHighlight (only the blocks a change touches), drawn by CodeBlockView (tabs,
// copy, fullscreen, link).
import TiptapCodeBlock from '@tiptap/extension-code-block';
import { ReactNodeViewRenderer } from '@tiptap/react';
import { tiptapAttributes } from '../schema';
import { CodeBlockView } from '../views/CodeBlockView';
import { codeHighlightPlugin } from './codeHighlight';

export const CodeBlock = TiptapCodeBlock.extend({
  addAttributes() {
    const attrs = tiptapAttributes('codeBlock');
    // pasted HTML names the language in a class (language-x), as Markdown renderers do
    attrs.language!.parseHTML = (el) => {
      const fromData = el.getAttribute('data-language');
      if (fromData) return fromData;
      const code = el.querySelector('code') ?? el;
      const cls = [...code.classList].find((c) => c.startsWith('language-'));
      return cls ? cls.slice('language-'.length) : null;
    };
    return attrs;
  },
  addProseMirrorPlugins() {
    return [...(this.parent?.() ?? []), codeHighlightPlugin()];
  },
  addNodeView() {
    return ReactNodeViewRenderer(CodeBlockView);
  },
}).configure({ defaultLanguage: null, enableTabIndentation: true });
