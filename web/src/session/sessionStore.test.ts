import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeJwt, scriptFetch } from '../test/fetchMock';

const USER = { email: 'a@b.co', name: 'Ada', image: null };

async function freshStore() {
  vi.resetModules();
  return import('./sessionStore');
}

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('session', () => {
  it('a stored user is re-synced on reload and the new token stored', async () => {
    localStorage.setItem('user', JSON.stringify(USER));
    const jwt = fakeJwt(Date.now() / 1000 + 900);
    const { calls } = scriptFetch({ body: { user: { ...USER, name: 'Ada L.' }, session: {} }, headers: { 'set-auth-jwt': jwt } });
    const store = await freshStore();
    await store.restoreSession();
    expect(calls[0]!.url).toMatch(/\/api\/auth\/get-session$/);
    expect(calls[0]!.init.credentials).toBe('include');
    expect(store.sessionUser()?.name).toBe('Ada L.');
    expect(localStorage.getItem('auth-jwt')).toBe(jwt);
    await store.logout().catch(() => {});
  });

  it('a failed re-sync logs the user out', async () => {
    localStorage.setItem('user', JSON.stringify(USER));
    localStorage.setItem('auth-jwt', fakeJwt(Date.now() / 1000 + 900));
    scriptFetch({ status: 401 }, { body: null });
    const store = await freshStore();
    expect(store.isSignedIn()).toBe(true);
    await store.restoreSession();
    expect(store.sessionUser()).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(localStorage.getItem('auth-jwt')).toBeNull();
    expect(store.isSignedIn()).toBe(false);
  });

  it('a network failure during re-sync logs out too', async () => {
    localStorage.setItem('user', JSON.stringify(USER));
    vi.stubGlobal('fetch', vi.fn(async () => { throw new TypeError('Failed to fetch'); }));
    const store = await freshStore();
    await store.restoreSession();
    expect(store.sessionUser()).toBeNull();
  });

  it('logout clears the token and the user and ends the server session', async () => {
    localStorage.setItem('user', JSON.stringify(USER));
    localStorage.setItem('auth-jwt', 'tok');
    const { calls } = scriptFetch({ body: { success: true } });
    const store = await freshStore();
    await store.logout();
    expect(calls[0]!.url).toMatch(/\/api\/auth\/sign-out$/);
    expect(calls[0]!.init.method).toBe('POST');
    expect(localStorage.getItem('auth-jwt')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('an unexpired token alone counts as signed in; an expired one does not', async () => {
    localStorage.setItem('auth-jwt', fakeJwt(Date.now() / 1000 + 60));
    expect((await freshStore()).isSignedIn()).toBe(true);
    localStorage.setItem('auth-jwt', fakeJwt(Date.now() / 1000 - 60));
    expect((await freshStore()).isSignedIn()).toBe(false);
  });

  it('concurrent re-syncs share one request', async () => {
    const { calls } = scriptFetch({ body: { user: USER, session: {} } });
    const store = await freshStore();
    const [a, b] = await Promise.all([store.syncSession(), store.syncSession()]);
    expect(a).toEqual(USER);
    expect(b).toEqual(USER);
    expect(calls).toHaveLength(1);
  });
});
