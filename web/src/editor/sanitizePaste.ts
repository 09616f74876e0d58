// Pasted HTML is sanitised before ProseMirror parses it (spec section 5).
import DOMPurify from 'dompurify';

export function sanitizePastedHtml(html: string): string {
  return DOMPurify.sanitize(html, { FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'], FORBID_ATTR: ['style'] });
}
