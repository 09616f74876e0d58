// A comment body's limited Markdown, parsed into plain tokens the panel renders as React
// elements: text, **bold**, *italic* (or _italic_), `code`, [links](url) whose scheme is
// http, https or mailto, and @email mentions. No HTML is ever produced from the text: a
// tag is just text, an unsafe link stays its source text.

export type CommentToken =
  | { kind: 'text'; text: string }
  | { kind: 'break' }
  | { kind: 'code'; text: string }
  | { kind: 'bold'; children: CommentToken[] }
  | { kind: 'italic'; children: CommentToken[] }
  | { kind: 'link'; href: string; children: CommentToken[] }
  | { kind: 'mention'; email: string };

const SAFE_SCHEMES = new Set(['http:', 'https:', 'mailto:']);
const MENTION = /^@([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})/;
const LOCAL_CHAR = /[A-Za-z0-9._%+\-@]/;

/** The URL when it is absolute with a safe scheme (no control characters or spaces); else null. */
export function safeHref(raw: string): string | null {
  const href = raw.trim();
  // eslint-disable-next-line no-control-regex
  if (!href || /[\u0000-\u0020\u007f]/.test(href)) return null;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  return SAFE_SCHEMES.has(url.protocol) ? url.href : null;
}

// Finds the closing delimiter of an inline span on the same paragraph.
function closing(source: string, from: number, delimiter: string): number {
  const end = source.indexOf(delimiter, from);
  return end > from ? end : -1;
}

function pushText(out: CommentToken[], text: string) {
  const last = out[out.length - 1];
  if (last?.kind === 'text') last.text += text;
  else out.push({ kind: 'text', text });
}

function parseInline(source: string, depth: number): CommentToken[] {
  const out: CommentToken[] = [];
  let i = 0;
  while (i < source.length) {
    const rest = source.slice(i);
    const c = source[i]!;
    if (c === '\n') {
      out.push({ kind: 'break' });
      i += 1;
      continue;
    }
    if (c === '\\' && i + 1 < source.length && /[\\`*_[\]()@]/.test(source[i + 1]!)) {
      pushText(out, source[i + 1]!);
      i += 2;
      continue;
    }
    if (c === '`') {
      const end = closing(source, i + 1, '`');
      if (end > 0) {
        out.push({ kind: 'code', text: source.slice(i + 1, end) });
        i = end + 1;
        continue;
      }
    }
    if (depth < 4 && rest.startsWith('**')) {
      const end = closing(source, i + 2, '**');
      if (end > 0) {
        out.push({ kind: 'bold', children: parseInline(source.slice(i + 2, end), depth + 1) });
        i = end + 2;
        continue;
      }
    }
    if (depth < 4 && (c === '*' || c === '_') && source[i + 1] !== c && source[i + 1] !== ' ') {
      const end = closing(source, i + 1, c);
      if (end > 0) {
        out.push({ kind: 'italic', children: parseInline(source.slice(i + 1, end), depth + 1) });
        i = end + 1;
        continue;
      }
    }
    if (c === '[' && depth < 4) {
      const textEnd = closing(source, i + 1, '](');
      const urlEnd = textEnd > 0 ? source.indexOf(')', textEnd + 2) : -1;
      if (textEnd > 0 && urlEnd > 0) {
        const href = safeHref(source.slice(textEnd + 2, urlEnd));
        if (href) {
          out.push({ kind: 'link', href, children: parseInline(source.slice(i + 1, textEnd), depth + 1) });
          i = urlEnd + 1;
          continue;
        }
      }
    }
    if (c === '@' && (i === 0 || !LOCAL_CHAR.test(source[i - 1]!))) {
      const match = MENTION.exec(rest);
      if (match) {
        out.push({ kind: 'mention', email: match[1]!.toLowerCase() });
        i += match[0].length;
        continue;
      }
    }
    pushText(out, c);
    i += 1;
  }
  return out;
}

/** The body as tokens (line breaks kept as `break`). */
export function parseCommentBody(body: string): CommentToken[] {
  return parseInline(body.replace(/\r\n?/g, '\n'), 0);
}
