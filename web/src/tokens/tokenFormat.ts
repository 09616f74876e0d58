// How the token screen words expiry choices and times.
import type { AccessToken } from './tokensApi';

export const MAX_TOKEN_NAME_CHARS = 100;

/** The expiry choices of the create form, in days; null never expires. */
export const EXPIRY_CHOICES: readonly { days: number | null; label: string }[] = [
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: '1 year' },
  { days: null, label: 'Never' },
];

export const DEFAULT_EXPIRY_DAYS = 30;

/** A problem with the name as typed, or null when the server would take it. */
export function tokenNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return 'Enter a name for the token';
  if ([...trimmed].length > MAX_TOKEN_NAME_CHARS) return `The name is longer than ${MAX_TOKEN_NAME_CHARS} characters`;
  return null;
}

export function isExpired(token: Pick<AccessToken, 'expiresAt'>, now: number = Date.now()): boolean {
  return token.expiresAt !== null && Date.parse(token.expiresAt) <= now;
}

export function formatTime(iso: string | null, none: string): string {
  if (!iso) return none;
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? none : time.toLocaleString();
}

export function scopeLabel(scope: AccessToken['scope']): string {
  return scope === 'write' ? 'Read and write' : 'Read only';
}
