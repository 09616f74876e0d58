import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import MagicLinkPage, { linkToken } from './MagicLinkPage';
import { noAnalytics, setAnalytics } from '../analytics/analytics';
import { deriveFromLocation, setRuntimeConfig } from '../config/runtimeConfig';
import { logout } from '../session/sessionStore';
import { currentToast, dismissToast } from '../toast/toastStore';

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

function renderAt(entry: string) {
  render(
    <MemoryRouter initialEntries={[entry]}>
      <Routes>
        <Route path="/login/link" element={<MagicLinkPage />} />
        <Route path="/projects" element={<p>projects screen</p>} />
        <Route path="/login" element={<p>login screen</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

beforeEach(() => setRuntimeConfig(deriveFromLocation({ protocol: 'http:', host: 'localhost', hostname: 'localhost' })));
afterEach(async () => {
  vi.stubGlobal('fetch', vi.fn(async () => json({ success: true })));
  await logout();
  vi.unstubAllGlobals();
  setAnalytics(noAnalytics);
  const t = currentToast();
  if (t) dismissToast(t.id);
});

describe('/login/link', () => {
  it('reads the token from the fragment', () => {
    expect(linkToken('#token=abc-_1')).toBe('abc-_1');
    expect(linkToken('')).toBe('');
    expect(linkToken('#other=1')).toBe('');
  });

  it('spends the token only on Continue, then syncs the session and opens /projects', async () => {
    const events: unknown[] = [];
    setAnalytics({ track: (event, props) => events.push([event, props]) });
    const fetchMock = vi.fn(async (url: string) =>
      String(url).endsWith('/api/auth/sign-in/magic-link')
        ? json({ user: { email: 'a@b.co' }, session: {} }, 200, { 'set-auth-jwt': 'jwt0' })
        : json({ user: { email: 'a@b.co', name: 'A' }, session: {} }, 200, { 'set-auth-jwt': 'jwt1' }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/login/link#token=tok123');
    await act(async () => {});
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await act(async () => {});
    expect(screen.getByText('projects screen')).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toMatch(/\/api\/auth\/sign-in\/magic-link$/);
    expect(JSON.parse(String(init.body))).toEqual({ token: 'tok123' });
    expect(events).toEqual([['Sign In Success', { provider: 'email' }]]);
    expect(JSON.parse(localStorage.getItem('user')!).email).toBe('a@b.co');
  });

  it('shows the server message of a spent link and offers the sign-in screen', async () => {
    vi.stubGlobal('fetch', vi.fn(async () =>
      json({ error: { code: 'invalid_link', message: 'This sign-in link has expired or was already used. Request a new code.', request_id: 'r' } }, 400)));
    renderAt('/login/link#token=old');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await act(async () => {});
    expect(currentToast()?.title).toBe('Verification failed');
    expect(currentToast()?.text).toMatch(/expired or was already used/);
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login');
  });

  it('without a token offers the sign-in screen', () => {
    renderAt('/login/link');
    expect(screen.queryByRole('button', { name: 'Continue' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toBeInTheDocument();
  });
});
