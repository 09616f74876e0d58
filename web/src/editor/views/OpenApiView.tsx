// A compact API view of an OpenAPI document: every path with its methods and summaries.
// JSON is parsed by the browser; YAML by the `yaml` package, loaded only when a YAML
// document is shown (flow mappings, anchors, quoted keys and block scalars all read).
import { useEffect, useState } from 'react';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export interface ApiOperation {
  method: string;
  path: string;
  summary: string;
}

type OpenApiDocument = { info?: { title?: unknown }; paths?: Record<string, unknown> };

function operationsOf(doc: unknown): { title: string; operations: ApiOperation[] } {
  if (!doc || typeof doc !== 'object') throw new Error('not an OpenAPI document');
  const { info, paths } = doc as OpenApiDocument;
  const operations = Object.entries(paths ?? {}).flatMap(([path, item]) =>
    Object.entries((item && typeof item === 'object' ? item : {}) as Record<string, unknown>)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => {
        const summary = op && typeof op === 'object' ? (op as { summary?: unknown }).summary : undefined;
        return { method: method.toUpperCase(), path, summary: typeof summary === 'string' ? summary : '' };
      }),
  );
  return { title: typeof info?.title === 'string' ? info.title : 'API', operations };
}

export async function openApiOperations(code: string): Promise<{ title: string; operations: ApiOperation[] }> {
  const text = code.trim();
  if (text.startsWith('{')) return operationsOf(JSON.parse(text));
  const { parse } = await import('yaml');
  // A document is one block of code: bounded aliases keep a "billion laughs" out.
  return operationsOf(parse(text, { maxAliasCount: 100 }));
}

type State = { kind: 'loading' } | { kind: 'ready'; title: string; operations: ApiOperation[] } | { kind: 'error' };

export function OpenApiView({ code }: { code: string }) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  useEffect(() => {
    let cancelled = false;
    openApiOperations(code).then(
      (result) => !cancelled && setState({ kind: 'ready', ...result }),
      () => !cancelled && setState({ kind: 'error' }),
    );
    return () => {
      cancelled = true;
    };
  }, [code]);
  if (state.kind === 'error') return <p className="diagram__error" role="alert">Error rendering API specification</p>;
  if (state.kind === 'loading') return <div className="openapi-view" aria-busy="true" />;
  return (
    <div className="openapi-view">
      <h4>{state.title}</h4>
      <ul>
        {state.operations.map((op) => (
          <li key={`${op.method} ${op.path}`}>
            <span className={`openapi-view__method openapi-view__method--${op.method.toLowerCase()}`}>{op.method}</span> <code>{op.path}</code>
            {op.summary && <span className="muted"> {op.summary}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
