import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ProgressPage from './ProgressPage';
import { deriveFromLocation, setRuntimeConfig } from '../config/runtimeConfig';
import { currentToast, dismissToast } from '../toast/toastStore';

function Where() {
  return <span data-testid="where">{useLocation().pathname}</span>;
}

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/generate/github" element={<ProgressPage kind="github" />} />
        <Route path="/generate/zip/:id" element={<ProgressPage kind="zip" />} />
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let statuses: string[];
let role: string | null;
let fetchMock: ReturnType<typeof vi.fn>;
/** GETs of the project itself (the poll), not of its generation run. */
const projectPolls = () => fetchMock.mock.calls.filter((c) => String(c[0]).includes('/api/project?projectId=')).length;

beforeEach(() => {
  vi.useFakeTimers();
  setRuntimeConfig(deriveFromLocation({ protocol: 'http:', host: 'localhost', hostname: 'localhost' }));
  statuses = [];
  role = 'admin';
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (String(url).endsWith('/generation/retry')) return json({ stage: 'analyze' }, 202);
    if (String(url).endsWith('/generation')) return json({ failed: true, message: 'Ctags could not be run', history: [] });
    if (init?.method === 'POST') return json({ id: 7, name: 'rocket', status: 'REQUEST_TO_CLONE' });
    return json({ id: 7, name: 'rocket', status: statuses.shift() ?? 'CLONING', default_page_id: 70, pages: [], role });
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  const t = currentToast();
  if (t) dismissToast(t.id);
});

describe('progress screen', () => {
  it('polls every 8 s, shows percent and messages, and redirects on DOC_SUCCESS', async () => {
    statuses = ['CLONING', 'DOC_TOPICS_GENERATING', 'DOC_SUCCESS'];
    renderAt('/generate/zip/7');
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByTestId('progress-percent')).toHaveTextContent('5%');
    expect(screen.getByText('Getting things ready')).toBeInTheDocument();
    expect(screen.getByText('You can close this page without causing any issues.')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(7999));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(screen.getByTestId('progress-percent')).toHaveTextContent('44%');
    await act(() => vi.advanceTimersByTimeAsync(8000));
    expect(screen.getByTestId('where')).toHaveTextContent('/projects/7/70');
  });

  it.each(['DOC_FAILURE', 'CLONE_FAIL', 'DOC_FILE_PAGES_FAILED'])('stops polling on %s and says Documentation Failed', async (status) => {
    statuses = [status];
    renderAt('/generate/zip/7');
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByText('Documentation Failed')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(40_000));
    expect(projectPolls()).toBe(1);
  });

  it('a run stopped at a failure the spec badges "In Progress" says why, stops polling, and a writer retries it', async () => {
    statuses = ['DOC_FILE_OVERVIEWS_FAILED', 'DOC_PENDING', 'DOC_SUCCESS'];
    role = 'write';
    renderAt('/generate/zip/7');
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByText('Getting things ready')).toBeInTheDocument();  // the spec's message for this status
    expect(screen.getByTestId('progress-stopped')).toHaveTextContent('This run stopped. Ctags could not be run');
    await act(() => vi.advanceTimersByTimeAsync(40_000));
    expect(projectPolls()).toBe(1);
    await act(async () => screen.getByRole('button', { name: 'Retry' }).click());
    await act(() => vi.advanceTimersByTimeAsync(0));
    const retry = fetchMock.mock.calls.find((c) => String(c[0]).endsWith('/api/project/7/generation/retry'));
    expect((retry?.[1] as RequestInit | undefined)?.method).toBe('POST');
    expect(screen.queryByTestId('progress-stopped')).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(8000));
    expect(screen.getByTestId('where')).toHaveTextContent('/projects/7/70');
  });

  it('a reader of a stopped run is told an editor can run it again', async () => {
    statuses = ['DOC_PROJECT_OVERVIEW_FAILED'];
    role = 'read';
    renderAt('/generate/zip/7');
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByText('An editor of this project can run it again.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('an invalid creation basis is CLONE_FAIL with the spec message', async () => {
    localStorage.setItem('project-creation-basis', JSON.stringify({ owner_name: '', repo_name: 'x' }));
    renderAt('/generate/github');
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(currentToast()?.text).toBe('Project creation info is missing or invalid');
    expect(screen.getByText('Documentation Failed')).toBeInTheDocument();
    expect(screen.getByTestId('progress-percent')).toHaveTextContent('10%');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('creates the repository project once from the basis, then polls it', async () => {
    localStorage.setItem('project-creation-basis', JSON.stringify({ owner_name: 'acme', repo_name: 'rocket', project_name: 'Rocket', language: 'ru', is_private: true }));
    renderAt('/generate/github');
    await act(() => vi.advanceTimersByTimeAsync(0));
    const post = fetchMock.mock.calls.find((c) => (c[1] as RequestInit | undefined)?.method === 'POST')!;
    expect(String(post[0])).toMatch(/\/api\/project\/github$/);
    expect(JSON.parse((post[1] as RequestInit).body as string)).toEqual({ repo_owner: 'acme', repo_name: 'rocket', name: 'Rocket', language: 'ru', is_private: true });
    expect(String(fetchMock.mock.calls[1]![0])).toMatch(/\/api\/project\?projectId=7$/);
  });

  it('a failed creation is CLONE_FAIL: Could not create project', async () => {
    localStorage.setItem('project-creation-basis', JSON.stringify({ owner_name: 'acme', repo_name: 'rocket', project_name: 'Rocket', language: 'en', is_private: true }));
    fetchMock.mockImplementation(async () => json({ error: { code: 'internal' } }, 500));
    renderAt('/generate/github');
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(currentToast()).toMatchObject({ title: 'Could not create project', text: 'An error occurred while creating the project' });
    expect(screen.getByText('Documentation Failed')).toBeInTheDocument();
  });

  it('after a reload follows the project it created instead of creating it again', async () => {
    localStorage.setItem('project-creation-basis', JSON.stringify({ owner_name: 'acme', repo_name: 'rocket', project_name: 'Rocket', language: 'en', is_private: true }));
    renderAt('/generate/github');
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(JSON.parse(localStorage.getItem('project-creation-basis')!).project_id).toBe(7);
    cleanup();
    fetchMock.mockClear();
    renderAt('/generate/github');
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(fetchMock.mock.calls.some((c) => (c[1] as RequestInit | undefined)?.method === 'POST')).toBe(false);
    expect(String(fetchMock.mock.calls[0]![0])).toMatch(/projectId=7$/);
  });
});
