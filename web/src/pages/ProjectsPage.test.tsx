import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ProjectsPage from './ProjectsPage';
import { deriveFromLocation, setRuntimeConfig } from '../config/runtimeConfig';
import { currentToast, dismissToast } from '../toast/toastStore';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const project = (id: number, name: string, status: string | null, extra = {}) => ({ id, name, status, type: 'user', visibility: 'private', description: null, ...extra });

let fetchMock: ReturnType<typeof vi.fn>;
function answerList(list: unknown[]) {
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (init?.method === 'PATCH') return json({ ...(list.find((p) => String(url).endsWith(`/${(p as { id: number }).id}`)) as object), ...JSON.parse(init.body as string) });
    return json(list);
  });
  vi.stubGlobal('fetch', fetchMock);
}

async function renderPage() {
  render(<MemoryRouter><ProjectsPage /></MemoryRouter>);
  await act(async () => {});
}

beforeEach(() => setRuntimeConfig(deriveFromLocation({ protocol: 'http:', host: 'localhost', hostname: 'localhost' })));
afterEach(() => {
  vi.unstubAllGlobals();
  const t = currentToast();
  if (t) dismissToast(t.id);
});

describe('project list', () => {
  it('says No projects found when empty', async () => {
    answerList([]);
    await renderPage();
    expect(screen.getByText('No projects found')).toBeInTheDocument();
    expect(screen.getByText('Create a new project to start writing documentation')).toBeInTheDocument();
  });

  it('sorts by status order then name, with badges, visibility and the default description', async () => {
    answerList([
      project(1, 'zeta', 'CLONE_FAIL'),
      project(2, 'beta', 'DOC_SUCCESS', { visibility: 'public', description: 'Docs of beta' }),
      project(3, 'alpha', 'DOC_SUCCESS'),
      project(4, 'gamma', 'DOC_TOPICS_GENERATING'),
      project(5, 'delta', 'MYSTERY'),
    ]);
    await renderPage();
    const cards = screen.getAllByTestId('project-card');
    expect(cards.map((c) => within(c).getAllByRole('link')[0]!.textContent)).toEqual(['alpha', 'beta', 'gamma', 'zeta', 'delta']);
    expect(within(cards[0]!).queryByTestId('status-badge')).toBeNull();
    expect(within(cards[2]!).getByTestId('status-badge')).toHaveTextContent('In Progress');
    expect(within(cards[3]!).getByTestId('status-badge')).toHaveTextContent('Failed');
    expect(within(cards[4]!).getByTestId('status-badge')).toHaveTextContent('Unknown Status');
    expect(within(cards[1]!).getByText('Public')).toBeInTheDocument();
    expect(within(cards[0]!).getByText('Private')).toBeInTheDocument();
    expect(within(cards[0]!).getByText('No description')).toBeInTheDocument();
    expect(within(cards[1]!).getByText('Docs of beta')).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem('projects')!)).toHaveLength(5);
  });

  it('filters with the fuzzy search from 2 characters', async () => {
    answerList([project(1, 'payments-service', 'READY'), project(2, 'web-frontend', 'READY')]);
    await renderPage();
    const search = screen.getByLabelText('Search projects');
    fireEvent.change(search, { target: { value: 'p' } });
    expect(screen.getAllByTestId('project-card')).toHaveLength(2);
    fireEvent.change(search, { target: { value: 'paymnts' } });
    expect(screen.getAllByTestId('project-card')).toHaveLength(1);
  });

  it('ignores a rename to an empty name', async () => {
    answerList([project(1, 'alpha', 'READY')]);
    await renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'Settings for alpha' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Rename' }));
    fireEvent.change(screen.getByLabelText('Project name'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    await act(async () => {});
    expect(fetchMock).toHaveBeenCalledTimes(1); // only the list
    expect(screen.getByText('alpha')).toBeInTheDocument();
  });

  it('saves an empty description as No description, and Escape cancels', async () => {
    answerList([project(1, 'alpha', 'READY', { description: 'Old' })]);
    await renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'Description: Old. Edit' }));
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'changed' } });
    fireEvent.keyDown(screen.getByLabelText('Description'), { key: 'Escape' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Description: Old. Edit' }));
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: '   ' } });
    fireEvent.keyDown(screen.getByLabelText('Description'), { key: 'Enter' });
    await act(async () => {});
    expect(JSON.parse(fetchMock.mock.calls[1]![1].body)).toEqual({ description: 'No description' });
  });

  it('says Error fetching projects when the list fails', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ error: { code: 'internal' } }, 500)));
    await renderPage();
    expect(currentToast()?.title).toBe('Error fetching projects');
  });
});
