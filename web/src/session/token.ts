// The stored auth token (local storage key auth-jwt) and its exp claim.
import { STORAGE_KEYS, readString, remove, writeString } from '../storage/localStore';

function decodeBase64Url(part: string): string {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The exp claim in milliseconds since the epoch, or null when the token has none. */
export function tokenExpiryMs(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(decodeBase64Url(payload)) as { exp?: unknown };
    return typeof claims.exp === 'number' ? claims.exp * 1000 : null;
  } catch {
    return null;
  }
}

export function isTokenUnexpired(token: string | null, now = Date.now()): boolean {
  if (!token) return false;
  const exp = tokenExpiryMs(token);
  return exp !== null && exp > now;
}

export function storedToken(): string | null {
  return readString(STORAGE_KEYS.authToken);
}

/** Stores a token; a value given as "Bearer xyz" is stored as "xyz". */
export function storeToken(token: string): void {
  const bare = token.replace(/^Bearer\s+/i, '').trim();
  if (bare) writeString(STORAGE_KEYS.authToken, bare);
}

export function clearToken(): void {
  remove(STORAGE_KEYS.authToken);
}
