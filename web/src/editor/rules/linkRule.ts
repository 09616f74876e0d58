// Spec section 5, link input: a valid URL is kept; text with a dot and no space gets
// https:// in front; anything else applies nothing (null).
export function linkFromInput(input: string): string | null {
  const text = input.trim();
  if (!text) return null;
  if (isAbsoluteUrl(text)) return text;
  if (text.includes('.') && !/\s/.test(text)) return `https://${text}`;
  return null;
}

function isAbsoluteUrl(text: string): boolean {
  if (/\s/.test(text)) return false;
  try {
    const url = new URL(text);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol);
  } catch {
    return false;
  }
}
