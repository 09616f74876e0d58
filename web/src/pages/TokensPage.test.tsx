import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import TokensPage from './TokensPage';
import { deriveFromLocation, setRuntimeConfig } from '../config/runtimeConfig';
import { currentToast, dismissToast } from '../toast/toastStore';
import { scriptFetch } from '../test/fetchMock';
import { isExpired, tokenNameProblem } from '../tokens/tokenFormat';

const token = (id: string, name: string, extra = {}) => ({
  id, name, scope: 'read', createdAt: '2026-11-01T10:00:00Z', expiresAt: null, lastUsedAt: null, ...extra,
});

async function renderPage() {
  render(<MemoryRouter><TokensPage /></MemoryRouter>);
  await act(async () => {});
}

const rows = () => screen.queryAllByTestId('token-row');
const rowNames = () => rows().map((r) => within(r).getByRole('rowheader').textContent);

beforeEach(() => setRuntimeConfig(deriveFromLocation({ protocol: 'http:', host: 'localhost', hostname: 'localhost' })));
afterEach(() => {
  vi.unstubAllGlobals();
  const t = currentToast();
  if (t) dismissToast(t.id);
});

describe('API tokens screen', () => {
  it('lists name, scope, created, last used and expiry, marking an expired token', async () => {
    scriptFetch({ body: { tokens: [
      token('2', 'ci', { scope: 'write', lastUsedAt: '2026-11-02T08:00:00Z', expiresAt: '2026-12-01T00:00:00Z' }),
      token('1', 'old', { expiresAt: '2020-01-01T00:00:00Z' }),
    ] } });
    await renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'API tokens' })).toBeInTheDocument();
    expect(rowNames()).toEqual(['ci', 'old']);
    const [ci, old] = rows();
    expect(within(ci!).getByText('Read and write')).toBeInTheDocument();
    expect(within(ci!).getAllByRole('cell').map((c) => c.querySelector('time')?.getAttribute('datetime') ?? null).slice(1, 4))
      .toEqual(['2026-11-01T10:00:00Z', '2026-11-02T08:00:00Z', '2026-12-01T00:00:00Z']);
    expect(within(old!).getByText('Read only')).toBeInTheDocument();
    expect(within(old!).getByText('Never')).toBeInTheDocument(); // never used
    expect(within(old!).getByText('(expired)')).toBeInTheDocument();
    expect(within(ci!).queryByText('(expired)')).toBeNull();
    expect(document.title).toBe('API tokens · docs');
  });

  it('says so when there are no tokens', async () => {
    scriptFetch({ body: { tokens: [] } });
    await renderPage();
    expect(screen.getByText('You have no tokens.')).toBeInTheDocument();
  });

  it('creates a token with name, expiry and scope, shows its value once with Copy, and lists it', async () => {
    const { calls } = scriptFetch(
      { body: { tokens: [token('1', 'old')] } },
      { status: 201, body: { ...token('7', 'agent', { scope: 'write', expiresAt: '2027-11-26T00:00:00Z' }), token: 'docs_pat_secretvalue' } },
    );
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    await renderPage();
    fireEvent.change(screen.getByLabelText('Token name'), { target: { value: '  agent  ' } });
    fireEvent.change(screen.getByLabelText('Expires after'), { target: { value: '365' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Read and write' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByTestId('new-token-value')).toHaveTextContent('docs_pat_secretvalue');
    expect(calls[1]!.url).toBe('http://localhost/api/tokens');
    expect(calls[1]!.init.method).toBe('POST');
    expect(JSON.parse(calls[1]!.init.body as string)).toEqual({ name: 'agent', scope: 'write', expires_in_days: 365 });
    expect(rowNames()).toEqual(['agent', 'old']);
    expect(screen.getByLabelText('Token name')).toHaveValue('');

    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('docs_pat_secretvalue'));
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();

    // Done hides the value for good: the list never holds it.
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('new-token-value')).toBeNull();
    expect(screen.queryByText(/docs_pat_secretvalue/)).toBeNull();
  });

  it('sends no expiry for Never and read scope by default', async () => {
    const { calls } = scriptFetch({ body: { tokens: [] } }, { status: 201, body: { ...token('3', 'reader'), token: 'docs_pat_x' } });
    await renderPage();
    fireEvent.change(screen.getByLabelText('Token name'), { target: { value: 'reader' } });
    fireEvent.change(screen.getByLabelText('Expires after'), { target: { value: 'never' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    await screen.findByTestId('new-token-value');
    expect(JSON.parse(calls[1]!.init.body as string)).toEqual({ name: 'reader', scope: 'read' });
  });

  it('refuses an empty name without a request and shows the server refusal', async () => {
    const { calls } = scriptFetch(
      { body: { tokens: [] } },
      { status: 400, body: { error: { code: 'too_many_tokens', message: 'At most 50 tokens per user', request_id: 'r' } } },
    );
    await renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter a name for the token');
    expect(screen.getByLabelText('Token name')).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toHaveLength(1);
    fireEvent.change(screen.getByLabelText('Token name'), { target: { value: 'one more' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('At most 50 tokens per user'));
    expect(screen.queryByTestId('new-token-value')).toBeNull();
  });

  it('revokes a token after a confirmation; Cancel keeps it', async () => {
    const { calls } = scriptFetch({ body: { tokens: [token('2', 'ci'), token('1', 'old')] } }, { status: 204 });
    await renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'Revoke ci' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke token?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(rowNames()).toEqual(['ci', 'old']);
    expect(calls).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Revoke ci' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Revoke token?' })).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(rowNames()).toEqual(['old']));
    expect(calls[1]!.url).toBe('http://localhost/api/tokens/2');
    expect(calls[1]!.init.method).toBe('DELETE');
    expect(currentToast()?.title).toBe('Token “ci” revoked');
  });

  it('reloads the list when the token was already revoked elsewhere', async () => {
    scriptFetch(
      { body: { tokens: [token('2', 'ci'), token('1', 'old')] } },
      { status: 404, body: { error: { code: 'not_found', message: 'Access token not found', request_id: 'r' } } },
      { body: { tokens: [token('1', 'old')] } },
    );
    await renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'Revoke ci' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(rowNames()).toEqual(['old']));
  });
});

describe('token rules', () => {
  it('checks the name as the server does', () => {
    expect(tokenNameProblem('   ')).toBe('Enter a name for the token');
    expect(tokenNameProblem('é'.repeat(100))).toBeNull();
    expect(tokenNameProblem('x'.repeat(101))).toMatch(/longer than 100/);
  });

  it('an expiry in the past is expired; none never is', () => {
    expect(isExpired({ expiresAt: null })).toBe(false);
    expect(isExpired({ expiresAt: '2026-01-01T00:00:00Z' }, Date.parse('2026-01-02T00:00:00Z'))).toBe(true);
    expect(isExpired({ expiresAt: '2026-01-03T00:00:00Z' }, Date.parse('2026-01-02T00:00:00Z'))).toBe(false);
  });
});
