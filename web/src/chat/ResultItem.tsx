// One search result: where it comes from, its text, and a link to the code lines
// (git_url) or to the documentation page in this app.
import { useMemo } from 'react';
import { Link } from 'react-router';
import { markdownToHtml } from './markdown';
import type { RagItem } from './ragApi';

/** Page sections come as Markdown: their headings keep its escapes (read\_config). */
export function plainTitle(text: string): string {
  return text.replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1');
}

/** Only web addresses and same-site paths become links; anything else is shown as text. */
export function safeHref(url: string | null | undefined): string | null {
  if (!url) return null;
  return /^https?:\/\//i.test(url) || (url.startsWith('/') && !url.startsWith('//')) ? url : null;
}

/**
 * The file and lines a code link points at ('src/a.py#L3-L9', also at the end of a
 * repository address). A ZIP project has no repository, so its git_url is only this.
 */
export function codeLocation(url: string | null | undefined): string | null {
  const match = /^(.+)#L(\d+)(?:-L(\d+))?$/.exec(url ?? '');
  if (!match) return null;
  const [, target, from, to] = match as unknown as [string, string, string, string | undefined];
  const path = /^https?:\/\//i.test(target) ? /\/blob\/[^/]+\/(.+)$/.exec(target)?.[1] : target;
  if (!path) return null;
  return to && to !== from ? `${path}, lines ${from}-${to}` : `${path}, line ${from}`;
}

/** The file and lines of a code item: docsd's own fields, else read from git_url. */
export function itemLocation(item: RagItem): string | null {
  if (item.source !== 'code') return null;
  if (item.path && item.start_line) {
    const to = item.end_line && item.end_line !== item.start_line ? item.end_line : null;
    return to ? `${item.path}, lines ${item.start_line}-${to}` : `${item.path}, line ${item.start_line}`;
  }
  return codeLocation(item.git_url);
}

export function pagePath(item: RagItem): string | null {
  return item.project_id && item.page_id ? `/projects/${item.project_id}/${item.page_id}` : null;
}

export function ResultItem({ item, projectName }: { item: RagItem; projectName: string | null }) {
  const isCode = item.source === 'code';
  const codeHref = safeHref(item.git_url);
  const page = pagePath(item);
  const location = itemLocation(item);
  const title = plainTitle(item.description?.trim() || (isCode ? 'Code' : 'Documentation'));
  const docsHtml = useMemo(() => (isCode ? '' : markdownToHtml(item.content)), [isCode, item.content]);
  return (
    <article className="chat-result" data-source={item.source}>
      <header className="chat-result__header">
        <span className={`badge ${isCode ? 'badge--blue' : 'badge--green'}`}>{isCode ? 'Code' : 'Docs'}</span>
        <h3 className="chat-result__title">{title}</h3>
        {projectName && <span className="muted chat-result__project">{projectName}</span>}
      </header>
      {location && <p className="muted chat-result__location">{location}</p>}
      {isCode ? (
        <pre className="chat-result__code"><code>{item.content}</code></pre>
      ) : (
        <div className="chat-result__text" dangerouslySetInnerHTML={{ __html: docsHtml }} />
      )}
      <p className="chat-result__links">
        {codeHref && <a href={codeHref} target="_blank" rel="noopener noreferrer">View code lines</a>}
        {page && <Link to={page}>Open page</Link>}
      </p>
    </article>
  );
}
