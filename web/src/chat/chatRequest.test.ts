import { describe, expect, it } from 'vitest';
import { buildRagRequest, canSubmit, submitBlocker } from './chatRequest';
import { DEFAULT_CHAT_SETTINGS, type ChatSettings, type SearchScope } from './chatSettings';

const one = { all: false, ids: [7] };
const none = { all: false, ids: [] };
const all = { all: true, ids: [] };

describe('POST /lab/rag body', () => {
  it('maps the defaults and the chosen project', () => {
    expect(buildRagRequest('  how is a page stored? ', DEFAULT_CHAT_SETTINGS, { all: false, ids: [7, 9] })).toEqual({
      query: 'how is a page stored?', is_all: false, is_code: true, is_docs: true, is_llm: true,
      code_top_k: 10, docs_top_k: 10, projectIds: [7, 9],
    });
  });

  it.each<[SearchScope, boolean, boolean]>([
    ['codeAndDocs', true, true],
    ['code', true, false],
    ['docs', false, true],
  ])('searchScope %s: is_code %s, is_docs %s', (searchScope, isCode, isDocs) => {
    const body = buildRagRequest('q', { ...DEFAULT_CHAT_SETTINGS, searchScope }, one);
    expect([body.is_code, body.is_docs]).toEqual([isCode, isDocs]);
  });

  it('isSearchOnly turns the model off; counts go to top_k', () => {
    const body = buildRagRequest('q', { docsN: 3, codeN: 0, isSearchOnly: true, searchScope: 'docs' }, one);
    expect(body).toMatchObject({ is_llm: false, docs_top_k: 3, code_top_k: 0 });
    expect(buildRagRequest('q', DEFAULT_CHAT_SETTINGS, one).is_llm).toBe(true);
  });

  it('all projects: is_all and no ids', () => {
    expect(buildRagRequest('q', DEFAULT_CHAT_SETTINGS, { all: true, ids: [7] })).toMatchObject({ is_all: true, projectIds: [] });
  });
});

describe('submit enablement', () => {
  const s = (codeN: number, docsN: number): ChatSettings => ({ ...DEFAULT_CHAT_SETTINGS, codeN, docsN });
  it.each([
    ['q', s(10, 10), one, true],
    ['q', s(0, 1), one, true],
    ['q', s(1, 0), one, true],
    ['q', s(0, 0), one, false],
    ['q', s(10, 10), none, false],
    ['q', s(10, 10), all, true],
    ['', s(10, 10), one, false],
    ['   \n', s(10, 10), one, false],
  ])('prompt %j, counts, selection: %s', (prompt, settings, selection, expected) => {
    expect(canSubmit(prompt, settings, selection)).toBe(expected);
  });

  it('says why it cannot send', () => {
    expect(submitBlocker(s(0, 0), one)).toMatch(/above 0/);
    expect(submitBlocker(s(1, 0), none)).toMatch(/at least one project/);
    expect(submitBlocker(s(1, 0), one)).toBeNull();
  });
});
