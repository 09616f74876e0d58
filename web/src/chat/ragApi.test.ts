import { afterEach, describe, expect, it, vi } from 'vitest';
import { askRag, toAnswer } from './ragApi';
import { buildRagRequest } from './chatRequest';
import { DEFAULT_CHAT_SETTINGS } from './chatSettings';
import { scriptFetch } from '../test/fetchMock';
import { currentToast, dismissToast } from '../toast/toastStore';
import { ApiError } from '../api/client';

afterEach(() => vi.unstubAllGlobals());

const item = { source: 'code', content: 'def f(): pass', git_url: 'https://github.com/o/r/blob/abc/f.py#L1-L2', description: 'f.py', page_id: null, project_id: 7 };

describe('POST /lab/rag', () => {
  it('reads a Markdown string or a list of items, nothing else', () => {
    expect(toAnswer('# Hi')).toEqual({ kind: 'markdown', markdown: '# Hi' });
    expect(toAnswer([item])).toEqual({ kind: 'items', items: [item] });
    expect(toAnswer([])).toEqual({ kind: 'items', items: [] });
    expect(() => toAnswer({ answer: 'x' })).toThrow();
    expect(() => toAnswer([{ nope: 1 }])).toThrow();
    expect(() => toAnswer(null)).toThrow();
  });

  it('posts the mapped body as JSON', async () => {
    const { calls } = scriptFetch({ body: [item] });
    const answer = await askRag(buildRagRequest('where is f', DEFAULT_CHAT_SETTINGS, { all: false, ids: [7] }));
    expect(answer.kind).toBe('items');
    expect(calls[0]!.url).toMatch(/\/lab\/rag$/);
    expect(calls[0]!.init.method).toBe('POST');
    expect(JSON.parse(String(calls[0]!.init.body))).toMatchObject({ query: 'where is f', projectIds: [7], is_llm: true });
  });

  it('a failure throws without the generic toast (the screen shows its own alert)', async () => {
    const before = currentToast();
    if (before) dismissToast(before.id);
    scriptFetch({ status: 400, body: { error: { code: 'invalid', message: 'query is too long', request_id: 'r1' } } });
    const failure = await askRag(buildRagRequest('q', DEFAULT_CHAT_SETTINGS, { all: true, ids: [] })).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).serverMessage).toBe('query is too long');
    expect(currentToast()).toBeNull();
  });
});
