// Paste (spec section 5): images are uploaded, a lone YouTube link opens the video
// dialog, Markdown becomes structure, code becomes a code block, HTML is sanitised
// (sanitizeHtml in editorProps) and plain text is left to ProseMirror.
import { Extension, type Editor, type JSONContent } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { classifyPaste } from '../rules/pasteClassification';
import { isPlainVideoLink } from '../rules/videoRule';
import { EDITOR_MSG } from '../rules/editorMessages';
import { detectLanguage } from '../highlighter';

export interface SmartPasteOptions {
  onImageFile: (editor: Editor, file: File) => void;
  onVideoLink: (editor: Editor, url: string) => void;
}

/** Markdown -> editor JSON; a parse failure gives a document that says so. */
export function markdownToContent(editor: Editor, markdown: string): JSONContent[] {
  try {
    const parsed = editor.markdown?.parse(markdown);
    if (!parsed) throw new Error('no markdown parser');
    return parsed.content ?? [];
  } catch (error) {
    console.warn('markdown parse failed', error);
    return [{ type: 'paragraph', content: [{ type: 'text', text: EDITOR_MSG.parseError }] }];
  }
}

export const SmartPaste = Extension.create<SmartPasteOptions>({
  name: 'smartPaste',
  addOptions() {
    return { onImageFile: () => {}, onVideoLink: () => {} };
  },
  addProseMirrorPlugins() {
    const { editor, options } = this;
    return [
      new Plugin({
        key: new PluginKey('smartPaste'),
        props: {
          handlePaste: (view, event) => {
            if (!editor.isEditable) return false;
            const data = event.clipboardData;
            if (!data) return false;
            const images = [...data.files].filter((f) => f.type.startsWith('image/'));
            if (images.length) {
              images.forEach((file) => options.onImageFile(editor, file));
              return true;
            }
            // Only files, none an image (a PDF from the file manager): each is refused with
            // the spec's 'File type not supported.' rather than pasted as its name.
            if (data.files.length && !data.getData('text/plain') && !data.getData('text/html')) {
              [...data.files].forEach((file) => options.onImageFile(editor, file));
              return true;
            }
            // inside a code block everything is text
            if (view.state.selection.$from.parent.type.spec.code) return false;
            // copied from this or another ProseMirror editor: keep its structure
            const html = data.getData('text/html');
            if (html.includes('data-pm-slice')) return false;
            const text = data.getData('text/plain');
            if (isPlainVideoLink(text)) {
              options.onVideoLink(editor, text.trim());
              return true;
            }
            const kind = classifyPaste({ text, html });
            if (kind === 'markdown') {
              editor.chain().focus().insertContent(markdownToContent(editor, text)).run();
              return true;
            }
            if (kind === 'code') {
              editor.chain().focus().insertContent({ type: 'codeBlock', attrs: { language: detectLanguage(text) }, content: text ? [{ type: 'text', text }] : [] }).run();
              return true;
            }
            return false;
          },
        },
      }),
    ];
  },
});
