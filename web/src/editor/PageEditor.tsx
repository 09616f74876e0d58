// A project page in the editor: the page's Yjs document (collaborative for signed-in
// users), a skeleton until it is loaded, and title sync for writers.
import { useEffect, useRef, useState } from 'react';
import type { Editor } from '@tiptap/core';
import { BlockEditor } from './BlockEditor';
import { useCollabDocument } from './collab/useCollabDocument';
import { cursorName } from './collab/cursorUser';
import { syncTitle } from './titleSync';
import { isDevelopmentMode } from '../api/devMode';
import type { SessionUser } from '../api/types';
import type { Heading } from '../projectView/headings';
import { EditorSkeleton } from './EditorSkeleton';
import './editor.css';

export interface PageEditorProps {
  projectId: number;
  pageId: number;
  pageName: string | undefined;
  user: SessionUser | null;
  signedIn: boolean;
  canEdit: boolean;
  onHeadings: (headings: Heading[]) => void;
  onEditor: (editor: Editor | null) => void;
  onTitleSynced: (name: string) => void;
}

export default function PageEditor({ projectId, pageId, pageName, user, signedIn, canEdit, onHeadings, onEditor, onTitleSynced }: PageEditorProps) {
  const development = isDevelopmentMode();
  // development mode has no server to share with: the page is edited locally
  const collaborate = signedIn && !development;
  const { doc, provider, status, writable } = useCollabDocument(projectId, pageId, collaborate, development);
  const editable = status === 'ready' && writable && canEdit;
  const [editor, setEditor] = useState<Editor | null>(null);
  const name = useRef(pageName);
  name.current = pageName;

  useEffect(() => {
    onEditor(editor);
  }, [editor, onEditor]);

  useEffect(() => {
    if (!editor || !editable) return;
    return syncTitle(editor, pageId, () => name.current, onTitleSynced);
  }, [editor, editable, pageId, onTitleSynced]);

  if (status === 'loading') return <EditorSkeleton />;
  return (
    <BlockEditor key={doc.guid} doc={doc} provider={provider} cursorName={cursorName(user)} editable={editable}
      upload={{ projectId, pageId, local: false, slashMenuLocal: development }} onHeadings={onHeadings} onEditor={setEditor} />
  );
}
