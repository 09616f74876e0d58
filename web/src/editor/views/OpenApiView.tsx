// A compact API view of an OpenAPI document: every path with its methods and summaries.
// JSON is parsed fully; YAML is read line by line for the `paths` section only, which is
// what the overview needs and keeps a YAML parser out of the bundle.
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export interface ApiOperation {
  method: string;
  path: string;
  summary: string;
}

export function openApiOperations(code: string): { title: string; operations: ApiOperation[] } {
  const text = code.trim();
  if (text.startsWith('{')) {
    const doc = JSON.parse(text) as { info?: { title?: string }; paths?: Record<string, Record<string, { summary?: string }>> };
    const operations = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
      Object.entries(item ?? {})
        .filter(([method]) => METHODS.includes(method))
        .map(([method, op]) => ({ method: method.toUpperCase(), path, summary: op?.summary ?? '' })),
    );
    return { title: doc.info?.title ?? 'API', operations };
  }
  const lines = text.split('\n');
  const title = /^\s+title:\s*["']?(.+?)["']?\s*$/m.exec(text.slice(0, text.search(/^paths\s*:/m) >>> 0))?.[1] ?? 'API';
  const operations: ApiOperation[] = [];
  let inPaths = false;
  let path = '';
  let pathIndent = -1;
  for (const line of lines) {
    if (/^\S/.test(line)) inPaths = /^paths\s*:/.test(line);
    if (!inPaths || !line.trim()) continue;
    const indent = line.search(/\S/);
    const key = /^\s*["']?([^"':]+)["']?\s*:/.exec(line)?.[1];
    if (!key) continue;
    if (pathIndent === -1 || indent <= pathIndent) {
      if (key.startsWith('/')) {
        path = key;
        pathIndent = indent;
      }
    } else if (METHODS.includes(key)) {
      operations.push({ method: key.toUpperCase(), path, summary: '' });
    } else if (key === 'summary' && operations.length) {
      operations[operations.length - 1]!.summary = line.replace(/^\s*summary:\s*/, '').replace(/^["']|["']$/g, '');
    }
  }
  return { title, operations };
}

export function OpenApiView({ code }: { code: string }) {
  let result: ReturnType<typeof openApiOperations>;
  try {
    result = openApiOperations(code);
  } catch {
    return <p className="diagram__error" role="alert">Error rendering API specification</p>;
  }
  return (
    <div className="openapi-view">
      <h4>{result.title}</h4>
      <ul>
        {result.operations.map((op) => (
          <li key={`${op.method} ${op.path}`}>
            <span className={`openapi-view__method openapi-view__method--${op.method.toLowerCase()}`}>{op.method}</span> <code>{op.path}</code>
            {op.summary && <span className="muted"> {op.summary}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
