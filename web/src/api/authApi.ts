// Authentication calls (Better Auth paths, see docs/api.md).
import { ApiError, apiRequest, baseUrl, parseBody } from './client';
import type { SessionAnswer } from './types';
import { clearToken, isTokenUnexpired, storeToken, storedToken } from '../session/token';

const AUTH_HANDLED = [400, 401, 403, 404, 429, 500, 503];

async function fetchSession(withBearer: boolean): Promise<Response> {
  const headers: Record<string, string> = {};
  const token = storedToken();
  if (withBearer && token) headers.Authorization = `Bearer ${token}`;
  return fetch(`${baseUrl('auth')}/api/auth/get-session`, { credentials: 'include', headers });
}

/**
 * The session and a fresh JWT (stored from `set-auth-jwt`); null when signed out. A
 * refused bearer token is dropped and the cookie is asked alone.
 */
export async function getSession(): Promise<SessionAnswer | null> {
  let response = await fetchSession(isTokenUnexpired(storedToken()));
  if (response.status === 401) {
    clearToken();
    response = await fetchSession(false);
  }
  if (!response.ok) throw new ApiError(response.status, `${response.status} Error`, await parseBody(response).catch(() => null));
  const jwt = response.headers.get('set-auth-jwt');
  if (jwt) storeToken(jwt);
  return (await parseBody(response)) as SessionAnswer | null;
}

export function sendSignInOtp(email: string): Promise<{ success: boolean }> {
  return apiRequest('/api/auth/email-otp/send-verification-otp', {
    base: 'auth',
    method: 'POST',
    body: { email, type: 'sign-in' },
    handledStatuses: AUTH_HANDLED,
  });
}

export function signInWithOtp(email: string, otp: string): Promise<SessionAnswer> {
  return apiRequest('/api/auth/sign-in/email-otp', {
    base: 'auth',
    method: 'POST',
    body: { email, otp },
    handledStatuses: AUTH_HANDLED,
  });
}

/** Signs in with the token of the link mailed with each code (works even when codes are locked). */
export function signInWithMagicLink(token: string): Promise<SessionAnswer> {
  return apiRequest('/api/auth/sign-in/magic-link', {
    base: 'auth',
    method: 'POST',
    body: { token },
    handledStatuses: AUTH_HANDLED,
  });
}

export function startGithubSignIn(callbackURL: string): Promise<{ url: string; redirect: boolean }> {
  return apiRequest('/api/auth/sign-in/social', {
    base: 'auth',
    method: 'POST',
    body: { provider: 'github', callbackURL },
    handledStatuses: AUTH_HANDLED,
  });
}

export function signOutOnServer(): Promise<unknown> {
  return apiRequest('/api/auth/sign-out', { base: 'auth', method: 'POST', body: {}, handledStatuses: AUTH_HANDLED });
}
