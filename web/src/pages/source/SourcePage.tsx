// The source view (/projects/{id}/source?path=a/b.py#L10-L20): one file of a project's
// sources (GET /api/project/{id}/source), its
// code highlighted with line numbers, the lines a page linked to (#L10-L20) marked and
// scrolled into view. Every source link of a generated page opens here.
import { createElement, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { ApiError, apiRequest } from '../../api/client';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { lowlight } from '../../editor/highlighter';
import { linkedLines, sourceLanguage } from './sourceLanguage';
import './sourceView.css';

interface SourceFile {
  path: string;
  text: string;
  truncated: boolean;
  /** A repository project's: the file on its host at the generated commit. */
  web_url?: string;
  commit?: string;
}

type HastNode = { type: string; value?: string; tagName?: string; properties?: { className?: string[] }; children?: HastNode[] };

function renderHast(node: HastNode, key: number): ReactNode {
  if (node.type === 'text') return node.value ?? '';
  const children = (node.children ?? []).map(renderHast);
  if (node.type !== 'element' || !node.tagName) return children;
  return createElement(node.tagName, { key, className: node.properties?.className?.join(' ') }, children);
}

export default function SourcePage() {
  const { projectId = '' } = useParams();
  const [search] = useSearchParams();
  const path = search.get('path') ?? '';
  const { hash } = useLocation();
  const [file, setFile] = useState<SourceFile | null>(null);
  const [error, setError] = useState<string | null>(null);
  const marked = useRef<HTMLDivElement>(null);
  useDocumentTitle(path || 'Source');

  useEffect(() => {
    let current = true;
    setFile(null);
    setError(null);
    apiRequest<SourceFile>(`/api/project/${encodeURIComponent(projectId)}/source?path=${encodeURIComponent(path)}`, {
      handledStatuses: [400, 404],
    })
      .then((answer) => current && setFile(answer))
      .catch((e: unknown) => {
        if (!current) return;
        setError(e instanceof ApiError && (e.status === 404 || e.status === 400) ? (e.serverMessage ?? 'Not found') : 'The file could not be loaded');
      });
    return () => { current = false; };
  }, [projectId, path]);

  const lines = useMemo(() => (file ? file.text.replace(/\n$/, '').split('\n').length : 0), [file]);
  const range = linkedLines(hash);
  const code = useMemo(() => {
    if (!file) return null;
    const language = sourceLanguage(file.path);
    if (!language || !lowlight.registered(language)) return file.text;
    return renderHast(lowlight.highlight(language, file.text) as HastNode, 0);
  }, [file]);

  useEffect(() => {
    if (file && range) marked.current?.scrollIntoView({ block: 'center' });
  }, [file, range?.from, range?.to]);

  return (
    <main className="source-view">
      <nav className="source-view__bar" aria-label="Source">
        <Link to={`/projects/${projectId}`}>Back to the documentation</Link>
        <h1 className="source-view__path">{path}</h1>
        {range && <span className="source-view__range">lines {range.from}{range.to > range.from ? `–${range.to}` : ''}</span>}
        {file?.web_url && /^https?:\/\//i.test(file.web_url) && (
          <a className="source-view__host" href={`${file.web_url}${range ? `#L${range.from}-L${range.to}` : ''}`} target="_blank" rel="noopener noreferrer">
            View in the repository{file.commit ? ` at ${file.commit.slice(0, 7)}` : ''}
          </a>
        )}
      </nav>
      {error && <p role="alert">{error}</p>}
      {!file && !error && <p role="status">Loading…</p>}
      {file && (
        <div className="source-view__code" data-testid="source-code" style={{ ['--source-lines' as string]: String(lines) }}>
          {range && range.from <= lines && (
            <div
              ref={marked}
              className="source-view__mark"
              data-testid="source-marked-lines"
              style={{ top: `calc(${range.from - 1} * var(--source-line-height))`, height: `calc(${Math.min(range.to, lines) - range.from + 1} * var(--source-line-height))` }}
            />
          )}
          <pre className="source-view__numbers" aria-hidden="true">{Array.from({ length: lines }, (_, i) => i + 1).join('\n')}</pre>
          <pre className="source-view__text"><code className="hljs">{code}</code></pre>
          {file.truncated && <p>The file is longer than 1 MiB; the rest is not shown.</p>}
        </div>
      )}
    </main>
  );
}
