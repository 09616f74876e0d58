import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ChatPage from '../pages/ChatPage';
import { scriptFetch, type Scripted } from '../test/fetchMock';
import { CHAT_SETTINGS_KEY } from './chatSettings';
import { currentToast } from '../toast/toastStore';

const project = { id: 7, name: 'Demo', type: 'user', status: 'DOC_SUCCESS', visibility: 'public', rag_status: 'active', pages: [] };
const codeItem = {
  source: 'code', content: 'def hello():\n    return 1', git_url: 'https://github.com/o/r/blob/abc/main.py#L1-L2',
  description: 'main.py:1-2 hello', page_id: null, project_id: 7,
};
const docsItem = { source: 'docs', content: 'How to say hello.', git_url: null, description: 'Overview', page_id: 12, project_id: 7 };

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname}</p>;
}

function renderChat(...answers: Scripted[]) {
  const fetched = scriptFetch({ body: project }, ...answers);
  render(
    <MemoryRouter initialEntries={[{ pathname: '/chat', state: { projectId: 7 } }]}>
      <Routes>
        <Route path="/chat" element={<ChatPage />} />
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
  return fetched;
}

const prompt = () => screen.getByLabelText('Ask a question');
const send = () => screen.getByRole('button', { name: 'Send' });
const bodyOf = (call: { init: RequestInit }) => JSON.parse(String(call.init.body));

beforeEach(() => {
  window.innerWidth = 1280; // the panel is open by default on wide screens
  Element.prototype.scrollIntoView = vi.fn();
  Element.prototype.scrollTo = vi.fn() as never;
});
afterEach(() => vi.unstubAllGlobals());

describe('chat screen', () => {
  it('offers the project it was opened from, selected, to a signed-out visitor', async () => {
    const { calls } = renderChat();
    const box = await screen.findByRole('checkbox', { name: 'Demo' });
    expect(box).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'All public projects' })).not.toBeChecked();
    expect(calls.map((c) => c.url)).toEqual([expect.stringMatching(/\/api\/project\?projectId=7$/)]);
  });

  it('sends on Enter with the mapped body, shows a spinner, appends the results and scrolls to their start', async () => {
    let answer!: (value: Response) => void;
    const { calls, mock } = renderChat();
    await screen.findByRole('checkbox', { name: 'Demo' });
    mock.mockImplementationOnce(async (url: RequestInfo | URL, init: RequestInit = {}) => {
      calls.push({ url: String(url), init });
      return new Promise<Response>((resolve) => (answer = resolve));
    });
    fireEvent.change(prompt(), { target: { value: 'where is hello' } });
    fireEvent.keyDown(prompt(), { key: 'Enter' });
    expect(await screen.findByText('Searching the code and docs...')).toBeInTheDocument();
    expect(prompt()).toHaveValue('');
    expect(send()).toBeDisabled();
    expect(calls[1]!.url).toMatch(/\/lab\/rag$/);
    expect(bodyOf(calls[1]!)).toEqual({
      query: 'where is hello', is_all: false, is_code: true, is_docs: true, is_llm: true, code_top_k: 10, docs_top_k: 10, projectIds: [7],
    });
    // The log scrolls to the new answer's start: rect offsets plus the log's own scroll, less a margin.
    const log = screen.getByTestId('chat-log');
    Object.defineProperty(log, 'scrollTop', { configurable: true, get: () => 500 });
    vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
      const top = this === log ? 100 : this.classList.contains('chat-exchange__reply') ? 300 : 0;
      return { top } as DOMRect;
    });
    const scrolled = vi.mocked(log.scrollTo);
    scrolled.mockClear();
    await act(async () => answer(new Response(JSON.stringify([codeItem, docsItem]), { headers: { 'content-type': 'application/json' } })));
    const doc = await screen.findByTestId('chat-answer');
    expect(screen.queryByText('Searching the code and docs...')).toBeNull();
    expect(within(doc).getByRole('link', { name: 'View code lines' })).toHaveAttribute('href', codeItem.git_url);
    expect(within(doc).getByRole('link', { name: 'View code lines' })).toHaveAttribute('rel', 'noopener noreferrer');
    expect(within(doc).getByRole('link', { name: 'Open page' })).toHaveAttribute('href', '/projects/7/12');
    expect(within(doc).getByText(/def hello/)).toBeInTheDocument();
    expect(scrolled).toHaveBeenCalledWith({ top: 300 - 100 + 500 - 16 });
    expect(Element.prototype.scrollIntoView).not.toHaveBeenCalled();
  });

  it('follows a result to its page', async () => {
    renderChat({ body: [docsItem] });
    await screen.findByRole('checkbox', { name: 'Demo' });
    fireEvent.change(prompt(), { target: { value: 'hello' } });
    fireEvent.click(send());
    fireEvent.click(await screen.findByRole('link', { name: 'Open page' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/projects/7/12');
  });

  it('renders a Markdown answer as a read-only document without scripts', async () => {
    renderChat({ body: '## Answer\n\nUse `hello()` [here](https://example.com).\n\n<img src=x onerror="alert(1)"><script>alert(2)</script>' });
    await screen.findByRole('checkbox', { name: 'Demo' });
    fireEvent.change(prompt(), { target: { value: 'hello' } });
    fireEvent.keyDown(prompt(), { key: 'Enter' });
    const doc = await screen.findByTestId('chat-answer');
    expect(within(doc).getByRole('heading', { name: 'Answer' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Answer ready');
    expect(within(doc).getByText('hello()').tagName).toBe('CODE');
    expect(doc.innerHTML).not.toMatch(/onerror|<script/);
    expect(doc.getAttribute('contenteditable')).toBeNull();
  });

  it("shows 'Error fetching response' on failure, without the generic toast", async () => {
    renderChat({ status: 500, body: { error: { code: 'internal', message: 'model unavailable', request_id: 'r' } } });
    await screen.findByRole('checkbox', { name: 'Demo' });
    fireEvent.change(prompt(), { target: { value: 'hello' } });
    fireEvent.click(send());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error fetching response');
    expect(alert).toHaveTextContent('model unavailable');
    expect(currentToast()).toBeNull();
    expect(prompt()).toBeEnabled();
  });

  it('an answer of the wrong shape is a failure too', async () => {
    renderChat({ body: { unexpected: true } });
    await screen.findByRole('checkbox', { name: 'Demo' });
    fireEvent.change(prompt(), { target: { value: 'hello' } });
    fireEvent.click(send());
    expect(await screen.findByRole('alert')).toHaveTextContent('Error fetching response');
  });

  it('sends only with a prompt, a project and a count above 0', async () => {
    const { calls } = renderChat();
    const demo = await screen.findByRole('checkbox', { name: 'Demo' });
    expect(send()).toBeDisabled(); // empty prompt
    fireEvent.change(prompt(), { target: { value: '   ' } });
    expect(send()).toBeDisabled();
    fireEvent.change(prompt(), { target: { value: 'q' } });
    expect(send()).toBeEnabled();

    fireEvent.click(demo);
    expect(send()).toBeDisabled();
    expect(screen.getByText('Choose at least one project.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('checkbox', { name: 'All public projects' }));
    expect(send()).toBeEnabled();
    expect(screen.getByRole('checkbox', { name: 'Demo' })).toBeDisabled();

    fireEvent.change(screen.getByLabelText('Docs results'), { target: { value: '0' } });
    expect(send()).toBeEnabled();
    fireEvent.change(screen.getByLabelText('Code results'), { target: { value: '0' } });
    expect(send()).toBeDisabled();
    expect(screen.getByText(/above 0/)).toBeInTheDocument();
    fireEvent.keyDown(prompt(), { key: 'Enter' });
    expect(calls).toHaveLength(1); // nothing sent
  });

  it('Shift+Enter does not send', async () => {
    const { calls } = renderChat();
    await screen.findByRole('checkbox', { name: 'Demo' });
    fireEvent.change(prompt(), { target: { value: 'q' } });
    fireEvent.keyDown(prompt(), { key: 'Enter', shiftKey: true });
    expect(calls).toHaveLength(1);
  });

  it('count fields: digits only, spaces blocked, capped at 1000, persisted', async () => {
    const user = userEvent.setup();
    renderChat();
    await screen.findByRole('checkbox', { name: 'Demo' });
    const docs = screen.getByLabelText('Docs results');
    expect(docs).toHaveValue('10');
    await user.clear(docs);
    await user.type(docs, '1 2a-3');
    expect(docs).toHaveValue('123');
    await user.type(docs, '4');
    expect(docs).toHaveValue('1000');
    await user.clear(docs);
    await user.tab();
    expect(docs).toHaveValue('0');
    const code = screen.getByLabelText('Code results');
    await user.clear(code);
    await user.click(code);
    await user.paste(' 4 2 ');
    expect(code).toHaveValue('42');
    await user.click(screen.getByRole('checkbox', { name: /Search only/ }));
    await user.click(screen.getByRole('radio', { name: 'Docs' }));
    expect(JSON.parse(localStorage.getItem(CHAT_SETTINGS_KEY)!)).toEqual({ docsN: 0, codeN: 42, isSearchOnly: true, searchScope: 'docs' });
  });

  it('reads the stored settings and maps them into the request', async () => {
    localStorage.setItem(CHAT_SETTINGS_KEY, JSON.stringify({ docsN: 3, codeN: 0, isSearchOnly: true, searchScope: 'docs' }));
    const { calls } = renderChat({ body: [] });
    await screen.findByRole('checkbox', { name: 'Demo' });
    expect(screen.getByLabelText('Docs results')).toHaveValue('3');
    expect(screen.getByRole('radio', { name: 'Docs' })).toBeChecked();
    fireEvent.change(prompt(), { target: { value: 'q' } });
    fireEvent.click(send());
    await screen.findByText('No matching code or docs were found.');
    expect(bodyOf(calls[1]!)).toMatchObject({ is_code: false, is_docs: true, is_llm: false, docs_top_k: 3, code_top_k: 0 });
  });

  it("shows 'Continue prompting' once scrolled away from the bottom; it scrolls down and focuses the prompt", async () => {
    renderChat();
    await screen.findByRole('checkbox', { name: 'Demo' });
    const log = screen.getByTestId('chat-log');
    const metrics = { scrollHeight: 2000, clientHeight: 500, scrollTop: 1500 };
    for (const key of Object.keys(metrics) as (keyof typeof metrics)[]) {
      Object.defineProperty(log, key, { configurable: true, get: () => metrics[key] });
    }
    fireEvent.scroll(log);
    expect(screen.queryByRole('button', { name: /Continue prompting/ })).toBeNull();
    metrics.scrollTop = 600;
    fireEvent.scroll(log);
    const button = screen.getByRole('button', { name: /Continue prompting/ });
    fireEvent.click(button);
    expect(log.scrollTo).toHaveBeenCalledWith({ top: 2000, behavior: 'smooth' });
    expect(prompt()).toHaveFocus();
    metrics.scrollTop = 1490;
    fireEvent.scroll(log);
    await waitFor(() => expect(screen.queryByRole('button', { name: /Continue prompting/ })).toBeNull());
  });

  it('on narrow screens the panel opens on demand', async () => {
    window.innerWidth = 800;
    renderChat();
    const toggle = screen.getByRole('button', { name: 'Projects and settings' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByLabelText('Docs results')).toBeNull();
    fireEvent.click(toggle);
    expect(await screen.findByRole('checkbox', { name: 'Demo' })).toBeChecked();
    expect(screen.getByLabelText('Docs results')).toHaveValue('10');
  });

  it('Back returns to the project when the chat was opened directly', async () => {
    renderChat();
    await screen.findByRole('checkbox', { name: 'Demo' });
    fireEvent.click(screen.getByRole('button', { name: /Back/ }));
    expect(screen.getByTestId('where')).toHaveTextContent('/projects/7');
  });

  it('a project that cannot be read is not offered or selected', async () => {
    scriptFetch({ status: 404, body: { error: { code: 'not_found', message: 'no' } } });
    render(
      <MemoryRouter initialEntries={[{ pathname: '/chat', state: { projectId: 99 } }]}>
        <ChatPage />
      </MemoryRouter>,
    );
    await screen.findByText(/Open the chat from a public project/);
    fireEvent.change(prompt(), { target: { value: 'q' } });
    expect(send()).toBeDisabled();
    expect(currentToast()).toBeNull();
  });
});
