// ProseMirror JSON -> GitHub-flavoured Markdown with exactly the server's rules
// (core/ydoc/src/markdown.cpp), so "Copy as Markdown" in the browser equals
// GET /api/page/{id}/export?format=md. Change both together.
import { MARK_ORDER } from '../schema';

export interface PmMark {
  type: string;
  attrs?: Record<string, unknown>;
}
export interface PmNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: PmNode[];
  marks?: PmMark[];
  text?: string;
}

const contentOf = (node: PmNode) => (Array.isArray(node.content) ? node.content : []);

function attrString(attrs: Record<string, unknown> | undefined, name: string): string {
  const v = attrs?.[name];
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return '';
}

function escapeText(s: string, inTable: boolean): string {
  let out = '';
  for (const c of s) {
    if ('\\`*_[]<>~'.includes(c)) out += `\\${c}`;
    else if (c === '|') out += inTable ? '\\|' : '|';
    else if (c === '\n') out += inTable ? '<br>' : '\n';
    else out += c;
  }
  return out;
}

// What would turn the start of a line into block syntax.
function escapeLineStart(s: string): string {
  if (!s) return s;
  if ('#+-='.includes(s[0]!)) return `\\${s}`;
  const digits = /^\d+/.exec(s)?.[0].length ?? 0;
  if (digits > 0 && digits < s.length && (s[digits] === '.' || s[digits] === ')')) return `${s.slice(0, digits)}\\${s.slice(digits)}`;
  return s;
}

function allowedUrl(url: string): string {
  let lower = '';
  for (const c of url) if (c.charCodeAt(0) > 0x20) lower += c.toLowerCase();
  const colon = lower.indexOf(':');
  const slash = lower.search(/[/?#]/);
  if (colon !== -1 && (slash === -1 || colon < slash)) {
    const scheme = lower.slice(0, colon);
    if (scheme !== 'http' && scheme !== 'https' && scheme !== 'mailto') return '#';
  }
  return url;
}

function safeUrl(raw: string): string {
  return allowedUrl(raw).replace(/[ ()\n\r]/g, (c) => ({ ' ': '%20', '(': '%28', ')': '%29' })[c as ' '] ?? '');
}

function sortedMarks(node: PmNode): PmMark[] {
  const rank = (m: PmMark) => {
    const i = MARK_ORDER.indexOf(m.type);
    return i === -1 ? MARK_ORDER.length : i;
  };
  return [...(node.marks ?? [])].sort((a, b) => rank(a) - rank(b));
}

function inlineCode(s: string): string {
  const longest = Math.max(0, ...(s.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = s.length > 0 && (s.startsWith('`') || s.endsWith('`'));
  return fence + (pad ? ' ' : '') + s + (pad ? ' ' : '') + fence;
}

function renderInline(nodes: PmNode[], inTable: boolean): string {
  let out = '';
  for (const n of nodes) {
    if (n.type === 'hardBreak') {
      out += inTable ? '<br>' : '\\\n';
      continue;
    }
    if (n.type === 'image') {
      out += `![${escapeText(attrString(n.attrs, 'alt'), inTable)}](${safeUrl(attrString(n.attrs, 'src'))})`;
      continue;
    }
    if (n.type !== 'text') continue;
    const raw = n.text ?? '';
    const marks = sortedMarks(n);
    const has = (t: string) => marks.some((m) => m.type === t);
    if (has('code')) {
      let code = inlineCode(raw);
      if (has('link')) code = `[${code}](${safeUrl(attrString(marks.filter((m) => m.type === 'link').at(-1)?.attrs, 'href'))})`;
      out += code;
      continue;
    }
    // spaces stay outside emphasis markers so the markers remain valid
    const first = raw.search(/[^ ]/);
    if (first === -1) {
      out += raw;
      continue;
    }
    const last = raw.length - 1 - (raw.split('').reverse().join('').search(/[^ ]/));
    let body = escapeText(raw.slice(first, last + 1), inTable);
    let open = '';
    let close = '';
    let href = '';
    for (const m of marks) {
      if (m.type === 'bold') { open += '**'; close = `**${close}`; }
      else if (m.type === 'italic') { open += '*'; close = `*${close}`; }
      else if (m.type === 'strike') { open += '~~'; close = `~~${close}`; }
      else if (m.type === 'underline') { open += '<u>'; close = `</u>${close}`; }
      else if (m.type === 'link') href = attrString(m.attrs, 'href');
    }
    body = open + body + close;
    if (href) body = `[${body}](${safeUrl(href)})`;
    out += raw.slice(0, first) + body + raw.slice(last + 1);
  }
  return out;
}

// Like the server's getline loop: a trailing newline does not start another line.
function prefixLines(text: string, first: string, rest: string): string {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (!lines.length) return `${first}\n`;
  return lines
    .map((line, i) => {
      const p = i === 0 ? first : rest;
      return line === '' && i > 0 ? `${p.replace(/ +$/, '')}\n` : `${p}${line}\n`;
    })
    .join('');
}

function renderTable(table: PmNode): string {
  const rows = contentOf(table).map((row) =>
    contentOf(row).map((cell) => contentOf(cell).map((block) => renderInline(contentOf(block), true)).join('<br>')),
  );
  if (!rows.length) return '';
  const cols = Math.max(...rows.map((r) => r.length));
  if (cols === 0) return '';
  const emit = (r: string[]) => `|${Array.from({ length: cols }, (_, i) => ` ${r[i] ?? ''} |`).join('')}\n`;
  return emit(rows[0]!) + `|${' --- |'.repeat(cols)}\n` + rows.slice(1).map(emit).join('');
}

function renderList(list: PmNode): string {
  let number = list.type === 'orderedList' && typeof list.attrs?.start === 'number' ? Math.trunc(list.attrs.start) : 1;
  let out = '';
  for (const item of contentOf(list)) {
    let marker = '- ';
    if (list.type === 'orderedList') marker = `${number++}. `;
    else if (list.type === 'taskList') marker = item.attrs?.checked === true ? '- [x] ' : '- [ ] ';
    let body = '';
    contentOf(item).forEach((block, b) => {
      // an ordered list not starting at 1 cannot interrupt a paragraph: leave a blank line
      if (b > 0 && block.type === 'orderedList' && block.attrs?.start !== 1) body += '\n';
      body += renderBlock(block);
    });
    body = body.replace(/\n+$/, '');
    out += prefixLines(body, marker, ' '.repeat(list.type === 'taskList' ? 2 : marker.length));
  }
  return out;
}

const ALERT_LABEL: Record<string, string> = { error: 'CAUTION', warning: 'WARNING', success: 'TIP' };

function renderBlock(node: PmNode): string {
  switch (node.type) {
    case 'paragraph':
      return `${escapeLineStart(renderInline(contentOf(node), false))}\n`;
    case 'heading': {
      const level = typeof node.attrs?.level === 'number' ? node.attrs.level : 1;
      return `${'#'.repeat(Math.min(6, Math.max(1, level)))} ${renderInline(contentOf(node), false)}\n`;
    }
    case 'bulletList':
    case 'orderedList':
    case 'taskList':
      return renderList(node);
    case 'blockquote':
      return prefixLines(renderBlocks(contentOf(node)), '> ', '> ');
    case 'alert':
      return prefixLines(`[!${ALERT_LABEL[attrString(node.attrs, 'type')] ?? 'NOTE'}]\n${renderBlocks(contentOf(node))}`, '> ', '> ');
    case 'codeBlock': {
      const code = contentOf(node).map((t) => t.text ?? '').join('');
      const longest = Math.max(2, ...(code.match(/`+/g) ?? []).map((r) => r.length));
      const fence = '`'.repeat(longest + 1);
      return `${fence}${attrString(node.attrs, 'language')}\n${code}${code && !code.endsWith('\n') ? '\n' : ''}${fence}\n`;
    }
    case 'table':
      return renderTable(node);
    case 'image': {
      const title = attrString(node.attrs, 'title');
      const titlePart = title ? ` "${title.replace(/"/g, '\\"')}"` : '';
      return `![${escapeText(attrString(node.attrs, 'alt'), false)}](${safeUrl(attrString(node.attrs, 'src'))}${titlePart})\n`;
    }
    case 'video':
      return `[Video](${safeUrl(attrString(node.attrs, 'src'))})\n`;
    case 'drawing':
      return '<!-- drawing -->\n';
    case 'horizontalRule':
      return '---\n';
    default:
      return renderBlocks(contentOf(node));
  }
}

function renderBlocks(nodes: PmNode[]): string {
  return nodes.map(renderBlock).filter(Boolean).join('\n');
}

export function toMarkdown(doc: PmNode): string {
  return renderBlocks(contentOf(doc));
}
