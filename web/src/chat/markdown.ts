// A Markdown answer as safe HTML for the read-only answer document: marked parses,
// DOMPurify removes scripts, handlers and script URLs (the answer quotes repository
// text, which nobody here controls).
import { Marked } from 'marked';
import DOMPurify from 'dompurify';

// A private instance: the editor may configure the shared one differently.
const parser = new Marked({ gfm: true, breaks: false, async: false });

export function markdownToHtml(markdown: string): string {
  const html = parser.parse(markdown, { async: false }) as string;
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}
