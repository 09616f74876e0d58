// A scripted fetch for unit tests: answers in order, records each request.
import { vi } from 'vitest';

export interface Scripted {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export function jsonResponse({ status = 200, body = {}, headers = {} }: Scripted): Response {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const contentType = typeof body === 'string' ? 'text/plain' : 'application/json';
  return new Response(status === 204 ? null : text, { status, headers: { 'content-type': contentType, ...headers } });
}

export function scriptFetch(...answers: Scripted[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  const mock = vi.fn(async (url: RequestInfo | URL, init: RequestInit = {}) => {
    calls.push({ url: String(url), init });
    const next = answers.shift();
    if (!next) throw new Error(`unexpected fetch ${String(url)}`);
    return jsonResponse(next);
  });
  vi.stubGlobal('fetch', mock);
  return { calls, mock };
}

/** A JWT-shaped token whose exp is `expSeconds` (unsigned: the client only reads exp). */
export function fakeJwt(expSeconds: number): string {
  const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${b64({ alg: 'EdDSA', typ: 'JWT' })}.${b64({ sub: '1', exp: expSeconds })}.c2ln`;
}
