// Spec section 8: page create, delete and move failures are only logged (no toast, for
// any status) and the tree is fetched again, so it shows what the server has.
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useProjectData } from './useProjectData';
import { scriptFetch } from '../test/fetchMock';
import { currentToast, dismissToast } from '../toast/toastStore';
import { deriveFromLocation, setRuntimeConfig } from '../config/runtimeConfig';

const page = (id: number, parent_id: number, name: string) => ({ id, parent_id, name });
const before = { id: 7, name: 'Docs', role: 'admin', pages: [page(1, 0, 'Guide'), page(2, 0, 'Install')] };
// what the server has after the failed call (someone else moved Install meanwhile)
const server = { ...before, pages: [page(1, 0, 'Guide'), page(2, 1, 'Install')] };

beforeEach(() => {
  setRuntimeConfig({ ...deriveFromLocation({ protocol: 'http:', host: 'localhost', hostname: 'localhost' }), apiUrl: 'http://api.test' });
  const toast = currentToast();
  if (toast) dismissToast(toast.id);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

type Data = ReturnType<typeof useProjectData>;
const calls: Record<string, (d: Data) => Promise<unknown>> = {
  move: (d) => d.movePage(2, 1),
  create: (d) => d.createPage(null),
  delete: (d) => d.deletePage(2),
};

describe('tree changes that fail', () => {
  it.each(Object.keys(calls).flatMap((what) => [400, 422, 429, 500, 504].map((status) => [what, status] as const)))(
    '%s answered %i: logged, no toast, the tree re-fetched',
    async (what, status) => {
      const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
      const { calls: requests } = scriptFetch({ body: before }, { status, body: { error: { code: 'x', message: 'no' } } }, { body: server });
      const { result } = renderHook(() => useProjectData({ by: 'id', projectId: 7 }, 'k'));
      await waitFor(() => expect(result.current.state.kind).toBe('ready'));

      let answer: unknown = 'unset';
      await act(async () => {
        answer = await calls[what]!(result.current);
      });

      expect(answer).toBeNull();
      expect(currentToast()).toBeNull();
      expect(errors).toHaveBeenCalledWith(expect.stringMatching(/^Page \w+ failed$/), expect.anything());
      expect(requests).toHaveLength(3);
      expect(requests[2]!.url).toBe('http://api.test/api/project?projectId=7');
      expect(result.current.state).toEqual({ kind: 'ready', project: server });
    },
  );

  it('a rename (not a tree change) still shows the error toast', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    scriptFetch({ body: before }, { status: 500 }, { body: before });
    const { result } = renderHook(() => useProjectData({ by: 'id', projectId: 7 }, 'k'));
    await waitFor(() => expect(result.current.state.kind).toBe('ready'));
    await act(async () => {
      await result.current.renamePage(1, 'New');
    });
    expect(currentToast()?.title).toBe('500 Error');
  });
});
