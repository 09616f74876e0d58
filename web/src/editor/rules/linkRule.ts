// Spec section 5, link input: a valid URL is kept; text with a dot and no space gets
// https:// in front; anything else applies nothing (null). A text that already names a
// scheme is never prefixed: it is kept when it parses as a URL with a safe scheme, else
// nothing is applied (javascript:, data: and friends would run or embed content).

const UNSAFE_SCHEMES = ['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:'];
// schemes written without '//' (a bare "host:port" is not one of them)
const OPAQUE_SCHEMES = /^(mailto|tel|sms|geo|xmpp|urn|news|magnet|javascript|data|vbscript|file|blob|about):/i;

function namesScheme(text: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text) || OPAQUE_SCHEMES.test(text);
}

export function linkFromInput(input: string): string | null {
  const text = input.trim();
  if (!text || /\s/.test(text)) return null;
  if (namesScheme(text)) return isSafeUrl(text) ? text : null;
  if (text.includes('.')) return `https://${text}`;
  return null;
}

function isSafeUrl(text: string): boolean {
  try {
    return !UNSAFE_SCHEMES.includes(new URL(text).protocol.toLowerCase());
  } catch {
    return false;
  }
}
