// A Markdown answer as safe HTML for the read-only answer document: marked parses,
// DOMPurify removes scripts, handlers and script URLs (the answer quotes repository
// text, which nobody here controls).
import { Marked } from 'marked';
import DOMPurify from 'dompurify';
import { EDITOR_MSG } from '../editor/rules/editorMessages';

// A private instance: the editor may configure the shared one differently.
const parser = new Marked({ gfm: true, breaks: false, async: false });

/** The answer as HTML; a parse failure gives a document saying 'Error parsing document' (spec). */
export function markdownToHtml(markdown: string, parse: (text: string) => string = (text) => parser.parse(text, { async: false }) as string): string {
  let html: string;
  try {
    html = parse(markdown);
  } catch {
    html = `<p>${EDITOR_MSG.parseError}</p>`;
  }
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}
