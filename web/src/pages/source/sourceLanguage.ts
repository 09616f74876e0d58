// The highlight.js grammar of a source file, by its extension (the grammars the editor
// registers; anything else is shown as plain text).
const BY_EXTENSION: Record<string, string> = {
  py: 'python', pyi: 'python', rs: 'rust', js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascript',
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript', go: 'go', java: 'java', kt: 'kotlin',
  kts: 'kotlin', scala: 'scala', c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hh: 'cpp', hpp: 'cpp', hxx: 'cpp',
  cs: 'csharp', rb: 'ruby', php: 'php', swift: 'swift', sh: 'bash', bash: 'bash', zsh: 'bash', ps1: 'powershell',
  json: 'json', yml: 'yaml', yaml: 'yaml', md: 'markdown', css: 'css', scss: 'scss', sql: 'sql', xml: 'xml',
  html: 'xml', svg: 'xml',
};

export function sourceLanguage(path: string): string | null {
  const name = path.split('/').pop() ?? '';
  if (name === 'Dockerfile') return 'dockerfile';
  const dot = name.lastIndexOf('.');
  return dot > 0 ? (BY_EXTENSION[name.slice(dot + 1).toLowerCase()] ?? null) : null;
}

/** The lines a link names: `#L10-L20` or `#L7`; null without a valid range. */
export function linkedLines(hash: string): { from: number; to: number } | null {
  const match = /^#L(\d+)(?:-L(\d+))?$/.exec(hash);
  if (!match) return null;
  const from = Number(match[1]);
  const to = match[2] ? Number(match[2]) : from;
  return from >= 1 && to >= from ? { from, to } : null;
}
