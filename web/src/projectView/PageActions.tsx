// Right sidebar buttons: Share (copies the address) and copy the page as markdown or HTML.
import { exportPage } from '../api/pagesApi';
import { copyText } from './clipboard';

export function PageActions({ pageId }: { pageId: number }) {
  const copyExport = async (format: 'md' | 'html') => {
    const body = await exportPage(pageId, format).catch(() => null);
    if (body !== null) await copyText(body, format === 'md' ? 'Copied as Markdown' : 'Copied as HTML');
  };
  return (
    <div className="page-actions">
      <button type="button" className="button button--ghost" onClick={() => void copyText(window.location.href)}>Share</button>
      <button type="button" className="button button--ghost" onClick={() => void copyExport('md')}>Copy as Markdown</button>
      <button type="button" className="button button--ghost" onClick={() => void copyExport('html')}>Copy as HTML</button>
    </div>
  );
}
