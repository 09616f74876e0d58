// The signed-in user: stored locally, re-synced on reload (a failed re-sync logs out),
// with the token refreshed before it expires.
import { getSession, signOutOnServer } from '../api/authApi';
import { setSessionResync } from '../api/client';
import type { SessionUser } from '../api/types';
import { STORAGE_KEYS, readJson, remove, writeJson } from '../storage/localStore';
import { clearToken, isTokenUnexpired, storedToken } from './token';
import { TokenRefresher } from './tokenRefresh';

type Listener = () => void;
const listeners = new Set<Listener>();
let user: SessionUser | null = readJson<SessionUser>(STORAGE_KEYS.user);

function emit(): void {
  for (const listener of listeners) listener();
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function sessionUser(): SessionUser | null {
  return user;
}

function setUser(next: SessionUser | null): void {
  user = next;
  if (next) writeJson(STORAGE_KEYS.user, next);
  else remove(STORAGE_KEYS.user);
  emit();
}

/** Signed in: a session user or an unexpired stored token (spec section 2). */
export function isSignedIn(): boolean {
  return user !== null || isTokenUnexpired(storedToken());
}

let inFlight: Promise<SessionUser> | null = null;

/** Asks the server for the session; rejects when there is none. Concurrent callers share one request. */
export function syncSession(): Promise<SessionUser> {
  inFlight ??= (async () => {
    try {
      const answer = await getSession();
      if (!answer?.user) throw new Error('No session');
      setUser(answer.user);
      refresher.start();
      return answer.user;
    } finally {
      inFlight = null;
    }
  })();
  return inFlight;
}

const refresher = new TokenRefresher({ currentToken: storedToken, refresh: syncSession });

/** Clears the token and the user (and ends the server session). */
export async function logout(): Promise<void> {
  refresher.stop();
  const hadToken = storedToken() !== null || user !== null;
  if (hadToken) await signOutOnServer().catch(() => undefined);
  clearToken();
  remove(STORAGE_KEYS.projects);
  setUser(null);
}

/** On start: a stored user triggers a re-sync; a failed re-sync logs out. */
export async function restoreSession(): Promise<void> {
  if (!user) {
    if (isTokenUnexpired(storedToken())) refresher.start();
    return;
  }
  try {
    await syncSession();
  } catch {
    refresher.stop();
    clearToken();
    setUser(null);
  }
}

setSessionResync(syncSession);
