import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NewProjectDialog } from './NewProjectDialog';
import { deriveFromLocation, setRuntimeConfig } from '../../config/runtimeConfig';
import { currentToast, dismissToast } from '../../toast/toastStore';

function Where() {
  return <span data-testid="where">{useLocation().pathname}</span>;
}

function renderDialog(onClose = vi.fn()) {
  render(
    <MemoryRouter initialEntries={['/projects']}>
      <Routes>
        <Route path="*" element={<><NewProjectDialog onClose={onClose} /><Where /></>} />
      </Routes>
    </MemoryRouter>,
  );
  return onClose;
}

const statusAnswer = (body: object, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  vi.useFakeTimers();
  setRuntimeConfig({ ...deriveFromLocation({ protocol: 'http:', host: 'localhost', hostname: 'localhost' }), githubAppSlug: 'docs-test-app' });
  fetchMock = vi.fn(async () => statusAnswer({ is_project_already_exists: false, has_installation_access: true }));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  const t = currentToast();
  if (t) dismissToast(t.id);
});

const urlInput = () => screen.getByLabelText('GitHub URL');
const primary = () => screen.getAllByRole('button').find((b) => b.getAttribute('type') === 'submit')!;

describe('New Project dialog', () => {
  it('defaults to GitHub, English, private; clicking outside does not close it', () => {
    const onClose = renderDialog();
    expect(screen.getByLabelText('GitHub')).toBeChecked();
    expect(screen.getByLabelText('Language')).toHaveValue('en');
    expect(screen.getByLabelText('Public project')).not.toBeChecked();
    expect(Array.from((screen.getByLabelText('Language') as HTMLSelectElement).options).map((o) => `${o.value} ${o.text}`)).toEqual([
      'en English', 'ru Russian', 'de German',
    ]);
    fireEvent.mouseDown(screen.getByTestId('modal-backdrop'));
    expect(onClose).not.toHaveBeenCalled();
    expect(primary()).toBeDisabled();
  });

  it('parses the URL, pre-fills the title and checks installation 500 ms after typing stops', async () => {
    renderDialog();
    fireEvent.change(urlInput(), { target: { value: 'github.com/acme/rocket' } });
    expect(screen.getByLabelText('Project Title')).toHaveValue('rocket');
    await act(() => vi.advanceTimersByTimeAsync(499));
    expect(fetchMock).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String(fetchMock.mock.calls[0]![0])).toMatch(/\/api\/github\/acme\/rocket\/installation\/status$/);
    expect(primary()).toHaveTextContent('Create');
    expect(primary()).toBeEnabled();
  });

  it('shows Invalid GitHub URL for another host', () => {
    renderDialog();
    fireEvent.change(urlInput(), { target: { value: 'https://gitlab.com/a/b' } });
    expect(screen.getByText('Invalid GitHub URL')).toBeInTheDocument();
  });

  it('shows Project already exists and View project, which opens the project', async () => {
    fetchMock.mockImplementation(async () => statusAnswer({ is_project_already_exists: true, has_installation_access: true }));
    renderDialog();
    fireEvent.change(urlInput(), { target: { value: 'https://github.com/acme/rocket' } });
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(screen.getByText('Project already exists')).toBeInTheDocument();
    expect(primary()).toHaveTextContent('View project');
    fireEvent.click(primary());
    expect(screen.getByTestId('where')).toHaveTextContent('/github/acme/rocket');
  });

  it('offers Install GitHub App, opens the app of this deployment and polls every 4 s until access', async () => {
    let access = false;
    fetchMock.mockImplementation(async () => statusAnswer({ is_project_already_exists: false, has_installation_access: access }));
    const opened = { closed: false } as Window;
    const open = vi.spyOn(window, 'open').mockReturnValue(opened);
    renderDialog();
    fireEvent.change(urlInput(), { target: { value: 'https://github.com/acme/rocket' } });
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(primary()).toHaveTextContent('Install GitHub App');
    fireEvent.click(primary());
    expect(open.mock.calls[0]![0]).toBe('https://github.com/apps/docs-test-app/installations/new');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(4000));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    access = true;
    await act(() => vi.advanceTimersByTimeAsync(4000));
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(primary()).toHaveTextContent('Create');
    await act(() => vi.advanceTimersByTimeAsync(12_000));
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('says Error checking for GitHub App installation when the check fails', async () => {
    fetchMock.mockImplementation(async () => statusAnswer({ error: { code: 'internal' } }, 500));
    renderDialog();
    fireEvent.change(urlInput(), { target: { value: 'https://github.com/acme/rocket' } });
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(currentToast()?.title).toBe('Error checking for GitHub App installation');
  });

  it('stores the creation basis and goes to /generate/github on Create', async () => {
    renderDialog();
    fireEvent.change(urlInput(), { target: { value: 'https://github.com/acme/rocket' } });
    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'de' } });
    fireEvent.click(screen.getByLabelText('Public project'));
    await act(() => vi.advanceTimersByTimeAsync(500));
    fireEvent.click(primary());
    expect(JSON.parse(localStorage.getItem('project-creation-basis')!)).toEqual({
      owner_name: 'acme', repo_name: 'rocket', project_name: 'rocket', language: 'de', is_private: false,
    });
    expect(screen.getByTestId('where')).toHaveTextContent('/generate/github');
  });

  it('ZIP: refuses other files, takes a zip, pre-fills the title and reads Create & Upload', () => {
    renderDialog();
    fireEvent.click(screen.getByLabelText('ZIP'));
    expect(primary()).toHaveTextContent('Create & Upload');
    const input = screen.getByTestId('zip-drop-zone').querySelector('input[type=file]')!;
    fireEvent.change(input, { target: { files: [new File(['x'], 'notes.txt', { type: 'text/plain' })] } });
    expect(screen.getByRole('alert')).toHaveTextContent('Please select a ZIP file');
    fireEvent.change(input, { target: { files: [new File(['x'], 'my-repo.zip', { type: 'application/zip' })] } });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Project Title')).toHaveValue('my-repo');
    expect(primary()).toBeEnabled();
  });

  it('Empty: needs only a title', () => {
    renderDialog();
    fireEvent.click(screen.getByLabelText('Empty'));
    expect(primary()).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Project Title'), { target: { value: 'Handbook' } });
    expect(primary()).toBeEnabled();
  });

  it('explains the GitHub App in the What is this? tooltip', () => {
    renderDialog();
    fireEvent.click(screen.getByRole('button', { name: 'What is this?' }));
    expect(screen.getByRole('tooltip')).toHaveTextContent('after each push');
    expect(screen.getByRole('tooltip')).toHaveTextContent('not used for model training or analytics');
  });

  it('ZIP: creates the project, uploads the file as field "file" and opens the progress screen', async () => {
    vi.useRealTimers();
    const calls: { url: string; init: RequestInit }[] = [];
    fetchMock.mockImplementation(async (url: string, init: RequestInit) => {
      calls.push({ url: String(url), init });
      return statusAnswer(String(url).endsWith('/api/project/zip') ? { id: 42 } : { ok: true });
    });
    renderDialog();
    fireEvent.click(screen.getByLabelText('ZIP'));
    const input = screen.getByTestId('zip-drop-zone').querySelector('input[type=file]')!;
    const file = new File(['PK'], 'service.zip', { type: 'application/zip' });
    fireEvent.change(input, { target: { files: [file] } });
    await act(async () => fireEvent.click(primary()));
    await screen.findByText('/generate/zip/42');
    expect(JSON.parse(calls[0]!.init.body as string)).toEqual({ name: 'service', is_private: true });
    expect(calls[1]!.url).toMatch(/\/api\/project\/42\/upload-zip$/);
    expect((calls[1]!.init.body as FormData).get('file')).toBeInstanceOf(File);
  });

  it('ZIP: a 413 says the file is too large', async () => {
    vi.useRealTimers();
    fetchMock.mockImplementation(async (url: string) =>
      String(url).endsWith('/api/project/zip') ? statusAnswer({ id: 42 }) : statusAnswer({ error: { code: 'payload_too_large' } }, 413));
    renderDialog();
    fireEvent.click(screen.getByLabelText('ZIP'));
    const input = screen.getByTestId('zip-drop-zone').querySelector('input[type=file]')!;
    fireEvent.change(input, { target: { files: [new File(['PK'], 'big.zip', { type: 'application/zip' })] } });
    await act(async () => fireEvent.click(primary()));
    await vi.waitFor(() => expect(currentToast()).toMatchObject({
      title: 'Error creating ZIP project', text: 'File is too large. Please use a ZIP file smaller than 100MB.',
    }));
  });

  it('Empty: a failure says Error creating project', async () => {
    vi.useRealTimers();
    fetchMock.mockImplementation(async () => statusAnswer({ error: { code: 'internal' } }, 500));
    renderDialog();
    fireEvent.click(screen.getByLabelText('Empty'));
    fireEvent.change(screen.getByLabelText('Project Title'), { target: { value: 'Handbook' } });
    await act(async () => fireEvent.click(primary()));
    await vi.waitFor(() => expect(currentToast()?.title).toBe('Error creating project'));
  });
});
