import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, setSessionResync } from './client';
import { currentToast, dismissToast } from '../toast/toastStore';
import { setRuntimeConfig, deriveFromLocation } from '../config/runtimeConfig';
import { scriptFetch } from '../test/fetchMock';

beforeEach(() => {
  setRuntimeConfig({ ...deriveFromLocation({ protocol: 'http:', host: 'localhost', hostname: 'localhost' }), apiUrl: 'http://api.test' });
  const toast = currentToast();
  if (toast) dismissToast(toast.id);
});
afterEach(() => {
  vi.unstubAllGlobals();
  setSessionResync(async () => {});
});

describe('generic response handling', () => {
  it('sends credentials and the stored bearer token, and parses JSON', async () => {
    localStorage.setItem('auth-jwt', 'tok');
    const { calls } = scriptFetch({ body: [{ id: 1 }] });
    await expect(apiRequest('/api/projects')).resolves.toEqual([{ id: 1 }]);
    expect(calls[0]!.url).toBe('http://api.test/api/projects');
    expect(calls[0]!.init.credentials).toBe('include');
    expect((calls[0]!.init.headers as Record<string, string>).Authorization).toBe('Bearer tok');
    expect((calls[0]!.init.headers as Record<string, string>).Mode).toBeUndefined();
  });

  it('parses text when the content type is not JSON', async () => {
    scriptFetch({ body: 'plain answer' });
    await expect(apiRequest('/x')).resolves.toBe('plain answer');
  });

  it('sends the Mode header in local-to-stage mode', async () => {
    setRuntimeConfig({ ...deriveFromLocation({ protocol: 'http:', host: 'localhost', hostname: 'localhost' }), mode: 'local-to-stage' });
    const { calls } = scriptFetch({ body: {} });
    await apiRequest('/x');
    expect((calls[0]!.init.headers as Record<string, string>).Mode).toBe('local-to-stage');
  });

  it('stores an Authorization header of the response', async () => {
    scriptFetch({ body: {}, headers: { Authorization: 'Bearer fresh' } });
    await apiRequest('/x');
    expect(localStorage.getItem('auth-jwt')).toBe('fresh');
  });

  it('on 401 re-syncs the session once and retries', async () => {
    const resync = vi.fn(async () => localStorage.setItem('auth-jwt', 'renewed'));
    setSessionResync(resync);
    const { calls } = scriptFetch({ status: 401, body: { error: { code: 'invalid_token' } } }, { body: { ok: true } });
    await expect(apiRequest('/x')).resolves.toEqual({ ok: true });
    expect(resync).toHaveBeenCalledTimes(1);
    expect((calls[1]!.init.headers as Record<string, string>).Authorization).toBe('Bearer renewed');
    expect(currentToast()).toBeNull();
  });

  it('a second 401 throws Not Authorized with code 401 and no toast', async () => {
    const resync = vi.fn(async () => {});
    setSessionResync(resync);
    scriptFetch({ status: 401 }, { status: 401, body: { error: { code: 'unauthorized' } } });
    const error = await apiRequest('/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect((error as ApiError).message).toBe('Not Authorized');
    expect(resync).toHaveBeenCalledTimes(1);
    expect(currentToast()).toBeNull();
  });

  it('a failing re-sync still retries once', async () => {
    setSessionResync(async () => { throw new Error('offline'); });
    const { calls } = scriptFetch({ status: 401 }, { status: 401 });
    await expect(apiRequest('/x')).rejects.toMatchObject({ status: 401, message: 'Not Authorized' });
    expect(calls).toHaveLength(2);
  });

  it.each([400, 403, 404, 409, 413, 500, 503])('%i shows "<status> Error" / "Please contact support" and carries the body', async (status) => {
    const body = { error: { code: 'x', message: 'server says', request_id: 'r1' } };
    scriptFetch({ status, body });
    const error = (await apiRequest('/x').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(status);
    expect(error.body).toEqual(body);
    expect(error.code).toBe('x');
    expect(currentToast()).toMatchObject({ title: `${status} Error`, text: 'Please contact support', type: 'error', durationMs: 5000 });
  });

  it('skips the toast for a status the caller handles', async () => {
    scriptFetch({ status: 403, body: { error: { code: 'forbidden' } } });
    await expect(apiRequest('/x', { handledStatuses: [403, 500] })).rejects.toMatchObject({ status: 403 });
    expect(currentToast()).toBeNull();
  });

  it('sends a plain object as JSON and FormData as it is', async () => {
    const { calls } = scriptFetch({ body: {} }, { body: {} });
    await apiRequest('/x', { method: 'POST', body: { name: 'a' } });
    expect(calls[0]!.init.body).toBe('{"name":"a"}');
    expect((calls[0]!.init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    const form = new FormData();
    await apiRequest('/y', { method: 'POST', body: form });
    expect(calls[1]!.init.body).toBe(form);
    expect((calls[1]!.init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });
});
