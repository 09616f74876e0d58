import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getPageContent } from './pagesApi';
import { setRuntimeConfig, deriveFromLocation } from '../config/runtimeConfig';
import { currentToast } from '../toast/toastStore';
import { scriptFetch } from '../test/fetchMock';

beforeEach(() => setRuntimeConfig({ ...deriveFromLocation({ protocol: 'http:', host: 'localhost', hostname: 'localhost' }), apiUrl: 'http://api.test' }));
afterEach(() => vi.unstubAllGlobals());

describe('stored page content (spec section 4)', () => {
  it('answers the base64 bytes', async () => {
    const { calls } = scriptFetch({ body: { content_bytea: 'AQID' } });
    await expect(getPageContent(5)).resolves.toBe('AQID');
    expect(calls[0]!.url).toBe('http://api.test/api/page/5/content');
  });

  it('a 404 is an empty page, without a toast', async () => {
    scriptFetch({ status: 404, body: { error: 'not_found' } });
    await expect(getPageContent(5)).resolves.toBeNull();
    expect(currentToast()).toBeNull();
  });

  it('any other failure is thrown, for the caller to use the local cache', async () => {
    scriptFetch({ status: 500, body: {} });
    await expect(getPageContent(5)).rejects.toMatchObject({ status: 500 });
  });
});
