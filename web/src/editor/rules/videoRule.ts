// Spec section 5, video: only YouTube addresses, stored as the embed address.
import { EDITOR_MSG } from './editorMessages';

const YOUTUBE_HOST = 'youtube.com';
const SHORT_HOST = 'youtu.be';
const ID = /^[\w-]{6,}$/;

export function isYoutubeUrl(text: string): boolean {
  return text.includes(YOUTUBE_HOST) || text.includes(SHORT_HOST);
}

/** `{src}` for a YouTube address, else `{error}` with the spec's message. */
export function youtubeEmbed(input: string): { src: string } | { error: string } {
  const text = input.trim();
  if (!isYoutubeUrl(text)) return { error: EDITOR_MSG.invalidYoutube };
  let url: URL;
  try {
    url = new URL(/^https?:\/\//.test(text) ? text : `https://${text}`);
  } catch {
    return { error: EDITOR_MSG.invalidYoutube };
  }
  const path = url.pathname.split('/').filter(Boolean);
  let id: string | null | undefined = null;
  if (url.hostname.endsWith(SHORT_HOST)) id = path[0];
  else if (path[0] === 'watch') id = url.searchParams.get('v');
  else if (path[0] === 'embed' || path[0] === 'shorts' || path[0] === 'live' || path[0] === 'v') id = path[1];
  if (!id || !ID.test(id)) return { error: EDITOR_MSG.invalidYoutube };
  return { src: `https://www.youtube.com/embed/${id}` };
}

/** A paste that is nothing but a video link opens the video dialog instead of a link. */
export function isPlainVideoLink(text: string): boolean {
  const t = text.trim();
  return !/\s/.test(t) && /^(https?:\/\/)?([\w-]+\.)*(youtube\.com|youtu\.be)\//.test(t) && 'src' in youtubeEmbed(t);
}
