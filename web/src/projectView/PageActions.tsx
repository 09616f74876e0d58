// Right sidebar buttons: Share (copies the address) and copy the page as Markdown
// (serialised in the browser from the editor, the server's rules) or HTML (the server's export).
import type { RefObject } from 'react';
import type { Editor } from '@tiptap/core';
import { exportPage } from '../api/pagesApi';
import { copyText } from './clipboard';
import { toMarkdown, type PmNode } from '../editor/markdown/toMarkdown';

export function PageActions({ pageId, editor, onHistory }: { pageId: number; editor?: RefObject<Editor | null>; onHistory?: () => void }) {
  const copyMarkdown = async () => {
    const current = editor?.current;
    const body = current ? toMarkdown(current.getJSON() as PmNode) : await exportPage(pageId, 'md').catch(() => null);
    if (body !== null) await copyText(body, 'Copied as Markdown');
  };
  const copyHtml = async () => {
    const body = await exportPage(pageId, 'html').catch(() => null);
    if (body !== null) await copyText(body, 'Copied as HTML');
  };
  return (
    <div className="page-actions">
      <button type="button" className="button button--ghost" onClick={() => void copyText(window.location.href)}>Share</button>
      <button type="button" className="button button--ghost" onClick={() => void copyMarkdown()}>Copy as Markdown</button>
      <button type="button" className="button button--ghost" onClick={() => void copyHtml()}>Copy as HTML</button>
      {onHistory && <button type="button" className="button button--ghost" aria-haspopup="dialog" onClick={onHistory}>History</button>}
    </div>
  );
}
