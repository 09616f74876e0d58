// Read-only page content: the server's HTML export, sanitised. The editor (issue 10)
// replaces this component.
import { useEffect, useRef, useState } from 'react';
import { exportPage } from '../api/pagesApi';
import { sanitizeHtml } from './sanitizeHtml';
import { collectHeadings, type Heading } from './headings';

interface Props {
  pageId: number;
  onHeadings: (headings: Heading[]) => void;
}

export function PageContent({ pageId, onHeadings }: Props) {
  const [html, setHtml] = useState<string | null>(null);
  const article = useRef<HTMLElement>(null);

  useEffect(() => {
    let live = true;
    setHtml(null);
    exportPage(pageId, 'html')
      .then((body) => live && setHtml(sanitizeHtml(body)))
      .catch(() => live && setHtml(''));
    return () => {
      live = false;
    };
  }, [pageId]);

  useEffect(() => {
    if (html === null || !article.current) return;
    onHeadings(collectHeadings(article.current));
  }, [html, onHeadings]);

  if (html === null) return <div className="page-content__skeleton" role="status" aria-label="Loading page" />;
  if (!html.trim()) return <p className="muted page-content__empty">This page is empty.</p>;
  return <article ref={article} className="page-content" data-testid="page-content" dangerouslySetInnerHTML={{ __html: html }} />;
}
