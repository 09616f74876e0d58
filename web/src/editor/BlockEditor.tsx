// The block editor: Tiptap with the shared schema, over a Yjs document when one is
// given (collaboration or stored content), else standalone (the offline sandbox).
import { useEffect, useState } from 'react';
import { EditorContent, useEditor } from '@tiptap/react';
import type { Editor } from '@tiptap/core';
import Collaboration from '@tiptap/extension-collaboration';
import CollaborationCaret from '@tiptap/extension-collaboration-caret';
import type * as Y from 'yjs';
import type { HocuspocusProvider } from '@hocuspocus/provider';
import { editorExtensions } from './extensions';
import { YDOC_FRAGMENT } from './schema';
import { sanitizePastedHtml } from './sanitizePaste';
import { SlashMenu } from './SlashMenu';
import { FormattingMenu } from './FormattingMenu';
import { EditorDialogs, type EditorDialog } from './EditorDialogs';
import { chooseImage, insertImageFile, slashMenuTarget, type UploadTarget } from './imageUpload';
import { headingsOf } from './extensions/HeadingIds';
import { cursorColour } from './collab/cursorUser';
import type { Heading } from '../projectView/headings';

export interface BlockEditorProps {
  doc?: Y.Doc;
  provider?: HocuspocusProvider | null;
  cursorName?: string;
  editable: boolean;
  upload: UploadTarget;
  onHeadings?: (headings: Heading[]) => void;
  onEditor?: (editor: Editor | null) => void;
  initialContent?: string;
}

export function BlockEditor({ doc, provider, cursorName = 'Guest', editable, upload, onHeadings, onEditor, initialContent }: BlockEditorProps) {
  const [dialog, setDialog] = useState<EditorDialog>(null);

  const editor = useEditor({
    editable,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    content: doc ? undefined : initialContent,
    extensions: [
      ...editorExtensions({
        collaborative: !!doc,
        userName: cursorName,
        onImageFile: (e, file) => void insertImageFile(e, file, upload),
        onVideoLink: (_e, url) => setDialog({ kind: 'video', initial: url }),
      }),
      ...(doc ? [Collaboration.configure({ document: doc, field: YDOC_FRAGMENT })] : []),
      ...(doc && provider ? [CollaborationCaret.configure({ provider, user: { name: cursorName, color: cursorColour(cursorName) } })] : []),
    ],
    editorProps: {
      transformPastedHTML: sanitizePastedHtml,
      // a labelled multi-line textbox (a plain div may not carry aria-label)
      attributes: { class: 'block-editor__content', role: 'textbox', 'aria-multiline': 'true', 'aria-label': 'Page content' },
      handleDrop: (view, event) => {
        const dropped = [...(event.dataTransfer?.files ?? [])];
        // Non-images go through the same check, which says 'File type not supported.'.
        const files = dropped.some((f) => f.type.startsWith('image/')) ? dropped.filter((f) => f.type.startsWith('image/')) : dropped;
        if (!files.length || !view.editable || !editor) return false;
        const pos = view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos;
        files.forEach((file) => void insertImageFile(editor, file, upload, pos));
        event.preventDefault();
        return true;
      },
    },
  }, [doc, provider]);

  useEffect(() => {
    if (editor && editor.isEditable !== editable) editor.setEditable(editable);
  }, [editor, editable]);

  useEffect(() => {
    onEditor?.(editor);
    return () => onEditor?.(null);
  }, [editor, onEditor]);

  // the table of contents follows the headings, a moment after typing stops
  useEffect(() => {
    if (!editor || !onHeadings) return;
    let last = '';
    let timer: ReturnType<typeof setTimeout> | undefined;
    const report = () => {
      const headings = headingsOf(editor.state.doc);
      const key = JSON.stringify(headings);
      if (key !== last) {
        last = key;
        onHeadings(headings);
      }
    };
    const later = () => {
      clearTimeout(timer);
      timer = setTimeout(report, 300);
    };
    report();
    editor.on('update', later);
    return () => {
      clearTimeout(timer);
      editor.off('update', later);
    };
  }, [editor, onHeadings]);

  if (!editor) return null;
  const ctx = { chooseImage: () => chooseImage(editor, slashMenuTarget(upload)), askVideo: () => setDialog({ kind: 'video', initial: '' }) };
  return (
    <div className="block-editor" data-testid="block-editor" data-editable={editable ? 'true' : 'false'}>
      <EditorContent editor={editor} />
      <SlashMenu editor={editor} ctx={ctx} />
      <FormattingMenu editor={editor} onLink={() => setDialog({ kind: 'link', initial: editor.getAttributes('link').href ?? '' })} />
      <EditorDialogs editor={editor} dialog={dialog} onClose={() => setDialog(null)} />
    </div>
  );
}
