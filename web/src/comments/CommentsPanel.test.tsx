import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CommentsPanel } from './CommentsPanel';
import { onStatelessPayload } from './commentSignals';
import { runtimeConfig, setRuntimeConfig, type RuntimeConfig } from '../config/runtimeConfig';
import { scriptFetch } from '../test/fetchMock';

let saved: RuntimeConfig;
beforeEach(() => {
  saved = runtimeConfig();
  setRuntimeConfig({ ...saved, mode: 'production', features: { comments: true } });
});
afterEach(() => {
  setRuntimeConfig(saved);
  window.history.replaceState(null, '', '/');
  vi.unstubAllGlobals();
});

const ada = { id: '3', name: 'Ada' };
const bob = { id: '4', name: 'Bob' };
const comment = (id: number, threadId: number, author = ada, body = 'Is **this** right?') => ({
  id, thread_id: threadId, author, body, created_at: '2026-11-22T19:00:00.000Z', edited_at: null,
});
const thread = (id: number, extra: Record<string, unknown> = {}) => ({
  id, page_id: 12, project_id: 7, author: ada, quote: `passage ${id}`, resolved: false, resolved_at: null, resolved_by: null,
  detached: false, created_at: '2026-11-22T19:00:00.000Z', comments: [comment(id * 10, id)], ...extra,
});
const page = (threads: unknown[], canComment = true) => ({ body: { threads, can_comment: canComment } });

describe('comments panel', () => {
  it('shows threads to a reader without the writing controls, detached ones marked', async () => {
    scriptFetch(page([thread(1), thread(2, { detached: true }), thread(3, { resolved: true, resolved_by: bob })], false));
    render(<CommentsPanel pageId={12} userId="3" />);
    const first = await screen.findByRole('article', { name: 'Comments on “passage 1”' });
    expect(within(first).getByText('this').tagName).toBe('STRONG');
    expect(within(screen.getByRole('article', { name: 'Comments on “passage 2”' })).getByText('Detached')).toBeInTheDocument();
    expect(within(first).queryByText('Detached')).toBeNull();
    expect(screen.getByText('Resolved (1)')).toBeInTheDocument();
    expect(screen.getByText('Resolved by Bob')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: /Resolve|Reopen|Edit|Delete/ })).toBeNull();
  });

  it('lets a writer reply and resolve, and edit or delete only their own comments', async () => {
    const replied = thread(1, { comments: [comment(10, 1, bob), comment(11, 1, ada, 'Yes')] });
    const { calls } = scriptFetch(
      page([thread(1, { comments: [comment(10, 1, bob)] })]),
      { status: 201, body: { thread: replied, comment: comment(11, 1, ada, 'Yes') } },
      page([replied]),
      { body: { thread: { ...replied, resolved: true }, comment: comment(10, 1, bob) } },
      page([{ ...replied, resolved: true, resolved_by: ada }]),
    );
    render(<CommentsPanel pageId={12} userId="3" />);
    const article = await screen.findByRole('article');
    expect(within(article).queryByRole('button', { name: 'Edit' })).toBeNull();  // Bob's
    fireEvent.change(within(article).getByRole('textbox', { name: 'Reply' }), { target: { value: ' Yes ' } });
    fireEvent.click(within(article).getByRole('button', { name: 'Reply' }));
    await waitFor(() => expect(within(screen.getByRole('article')).getAllByRole('listitem')).toHaveLength(2));
    expect(calls[1]!.url).toMatch(/\/api\/page\/12\/comments$/);
    expect(JSON.parse(String(calls[1]!.init.body))).toEqual({ body: 'Yes', thread_id: 1 });
    expect(within(screen.getByRole('article')).getAllByRole('button', { name: 'Edit' })).toHaveLength(1);  // Ada's own

    fireEvent.click(within(screen.getByRole('article')).getByRole('button', { name: 'Resolve' }));
    expect(await screen.findByText('Resolved (1)')).toBeInTheDocument();
    expect(calls[3]!.url).toMatch(/\/api\/comment\/10$/);
    expect(JSON.parse(String(calls[3]!.init.body))).toEqual({ resolved: true });
  });

  it('loads again when the collaboration socket says this page\'s comments changed', async () => {
    const { calls } = scriptFetch(page([]), page([thread(5)]));
    render(<CommentsPanel pageId={12} userId="3" />);
    expect(await screen.findByText('No comments yet.')).toBeInTheDocument();
    onStatelessPayload(JSON.stringify({ type: 'comments', page_id: 99, thread_id: 1, change: 'created' }));
    onStatelessPayload('not json');
    onStatelessPayload(JSON.stringify({ type: 'other', page_id: 12 }));
    expect(calls).toHaveLength(1);
    onStatelessPayload(JSON.stringify({ type: 'comments', page_id: 12, thread_id: 5, change: 'created' }));
    expect(await screen.findByText('passage 5')).toBeInTheDocument();
    expect(calls).toHaveLength(2);
  });

  it('opens the thread a mention mail links to, resolved ones too', async () => {
    window.history.replaceState(null, '', '/projects/7/12?thread=3');
    scriptFetch(page([thread(1), thread(3, { resolved: true })]));
    render(<CommentsPanel pageId={12} userId="3" />);
    const linked = await screen.findByRole('article', { name: 'Comments on “passage 3”' });
    await waitFor(() => expect(linked).toHaveClass('is-active'));
    expect(linked.closest('details')).toHaveAttribute('open');
    expect(screen.getByRole('article', { name: 'Comments on “passage 1”' })).not.toHaveClass('is-active');
  });

  it('is not there without the comments plugin', () => {
    setRuntimeConfig({ ...saved, mode: 'production', features: {} });
    const { container } = render(<CommentsPanel pageId={12} userId="3" />);
    expect(container).toBeEmptyDOMElement();
  });
});
