import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import AuthCallbackPage from './AuthCallbackPage';
import { noAnalytics, setAnalytics } from '../analytics/analytics';
import { deriveFromLocation, setRuntimeConfig } from '../config/runtimeConfig';
import { logout } from '../session/sessionStore';
import { currentToast, dismissToast } from '../toast/toastStore';

const json = (body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json', ...headers } });

function renderCallback() {
  render(
    <MemoryRouter initialEntries={['/auth-callback']}>
      <Routes>
        <Route path="/auth-callback" element={<AuthCallbackPage />} />
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

describe('/auth-callback', () => {
  it('shows Logging in..., syncs the session, records Sign In Success (github) and opens /projects', async () => {
    const events: unknown[] = [];
    setAnalytics({ track: (event, props) => events.push([event, props]) });
    vi.stubGlobal('fetch', vi.fn(async () => json({ user: { email: 'a@b.co', name: 'A' }, session: {} }, { 'set-auth-jwt': 'jwt1' })));
    renderCallback();
    expect(screen.getByText('Logging in...')).toBeInTheDocument();
    await act(async () => {});
    expect(screen.getByText('projects screen')).toBeInTheDocument();
    expect(events).toEqual([['Sign In Success', { provider: 'github' }]]);
    expect(localStorage.getItem('auth-jwt')).toBe('jwt1');
    expect(JSON.parse(localStorage.getItem('user')!).email).toBe('a@b.co');
  });

  it('goes back to /login when there is no session', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(null)));
    renderCallback();
    await act(async () => {});
    expect(screen.getByText('login screen')).toBeInTheDocument();
    expect(currentToast()?.title).toBe('Login failed');
  });
});
