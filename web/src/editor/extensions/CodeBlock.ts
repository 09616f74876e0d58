// Code block (spec sections 3 and 4): lowlight highlighting plus the schema's
// `language` and `git_url`, drawn by CodeBlockView (tabs, copy, fullscreen, link).
import CodeBlockLowlight from '@tiptap/extension-code-block-lowlight';
import { ReactNodeViewRenderer } from '@tiptap/react';
import { tiptapAttributes } from '../schema';
import { lowlight } from '../highlighter';
import { CodeBlockView } from '../views/CodeBlockView';

export const CodeBlock = CodeBlockLowlight.extend({
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
  addNodeView() {
    return ReactNodeViewRenderer(CodeBlockView);
  },
}).configure({ lowlight, defaultLanguage: null, enableTabIndentation: true });
