// The spec's "Generic response handling": credentials, bearer token, Mode header,
// storing a response Authorization header, JSON or text by content type, one session
// re-sync and retry on 401, error toasts unless the caller handles the status.
import { runtimeConfig } from '../config/runtimeConfig';
import { MSG, genericErrorTitle } from '../spec/messages';
import { showToast } from '../toast/toastStore';
import { storeToken, storedToken } from '../session/token';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The parsed response body (JSON when the server sent JSON). */
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The server's error code from `{"error": {"code"}}`, when present. */
  get code(): string | undefined {
    const error = (this.body as { error?: { code?: unknown } } | null)?.error;
    return typeof error?.code === 'string' ? error.code : undefined;
  }

  get serverMessage(): string | undefined {
    const error = (this.body as { error?: { message?: unknown } } | null)?.error;
    return typeof error?.message === 'string' ? error.message : undefined;
  }
}

export type ServiceBase = 'api' | 'auth' | 'rag';

export interface RequestOptions {
  method?: string;
  /** A plain object is sent as JSON; FormData and Blob as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Statuses the caller handles itself: no error toast for them. */
  handledStatuses?: readonly number[];
  /** The caller handles every failure (no error toast for any status). */
  silent?: boolean;
  base?: ServiceBase;
}

let resyncSession: () => Promise<unknown> = async () => {};

/** The session module registers how a 401 re-syncs the session. */
export function setSessionResync(fn: () => Promise<unknown>): void {
  resyncSession = fn;
}

export function baseUrl(base: ServiceBase): string {
  const config = runtimeConfig();
  return base === 'auth' ? config.authUrl : base === 'rag' ? config.ragUrl : config.apiUrl;
}

function buildInit(options: RequestOptions): RequestInit {
  const headers: Record<string, string> = { ...options.headers };
  const token = storedToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (runtimeConfig().mode === 'local-to-stage') headers.Mode = 'local-to-stage';
  let body: BodyInit | undefined;
  if (options.body instanceof FormData || options.body instanceof Blob || typeof options.body === 'string') {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  return { method: options.method ?? 'GET', headers, body, credentials: 'include' };
}

export async function parseBody(response: Response): Promise<unknown> {
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('application/json')) {
    const text = await response.text();
    return text ? (JSON.parse(text) as unknown) : null;
  }
  return response.text();
}

function rememberTokens(response: Response): void {
  const authorization = response.headers.get('authorization');
  if (authorization) storeToken(authorization);
  const jwt = response.headers.get('set-auth-jwt');
  if (jwt) storeToken(jwt);
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const url = /^https?:\/\//.test(path) ? path : `${baseUrl(options.base ?? 'api')}${path}`;
  let response = await fetch(url, buildInit(options));
  if (response.status === 401) {
    try {
      await resyncSession();
    } catch {
      // The retry below decides.
    }
    response = await fetch(url, buildInit(options));
    if (response.status === 401) {
      throw new ApiError(401, MSG.notAuthorized, await parseBody(response).catch(() => null));
    }
  }
  rememberTokens(response);
  const body = await parseBody(response).catch(() => null);
  if (!response.ok) {
    if (!options.silent && !(options.handledStatuses ?? []).includes(response.status)) {
      showToast({ title: genericErrorTitle(response.status), text: MSG.genericErrorText, type: 'error' });
    }
    const message = (body as { error?: { message?: string } } | null)?.error?.message ?? `${response.status} Error`;
    throw new ApiError(response.status, message, body);
  }
  return body as T;
}
