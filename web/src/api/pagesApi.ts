// The page calls the shell needs now (the page view issue adds the rest); development
// mode follows the spec: random ids 20..1019, sample pages, no-op update, sample delete.
import { apiRequest } from './client';
import { DEMO_PAGE, SAMPLE_DELETE_RESULT } from './devFixtures';
import { isDevelopmentMode, randomDevPageId, withDevDelay } from './devMode';
import type { Page } from './types';

/** Spec section 8: page create, delete and move failures are only logged (no toast),
 *  whatever the status: a 422 or 504 is as quiet as a 500. */
const TREE_CALL = { silent: true } as const;

export function createPage(projectId: number, parentPageId: number | null): Promise<{ id: number }> {
  if (isDevelopmentMode()) return withDevDelay({ id: randomDevPageId() });
  return apiRequest<{ id: number }>(`/api/project/${projectId}/page`, { method: 'POST', body: { parent_page_id: parentPageId }, ...TREE_CALL });
}

export function getPage(pageId: number): Promise<Page | typeof DEMO_PAGE> {
  if (isDevelopmentMode()) return withDevDelay({ ...DEMO_PAGE, page_id: pageId });
  return apiRequest<Page>(`/api/page/${pageId}`);
}

export function updatePage(pageId: number, changes: Partial<Pick<Page, 'name' | 'parent_id'>>): Promise<unknown> {
  if (isDevelopmentMode()) return Promise.resolve(undefined);
  const silent = 'parent_id' in changes;
  return apiRequest(`/api/page/${pageId}`, { method: 'PATCH', body: changes, silent });
}

/** The page rendered by the server as markdown or (escaped) HTML; an empty page is ''. */
export function exportPage(pageId: number, format: 'md' | 'html'): Promise<string> {
  if (isDevelopmentMode()) return withDevDelay(format === 'html' ? '<h1>Sample page</h1><p>Development mode.</p>' : '# Sample page');
  return apiRequest<string>(`/api/page/${pageId}/export?format=${format}`, { handledStatuses: [404] }).then((body) => (typeof body === 'string' ? body : ''));
}

export function deletePage(pageId: number): Promise<unknown> {
  if (isDevelopmentMode()) return withDevDelay(SAMPLE_DELETE_RESULT);
  return apiRequest(`/api/page/${pageId}`, { method: 'DELETE', ...TREE_CALL });
}

/** Stored page content (base64 Yjs bytes); null for a page never written (404). */
export async function getPageContent(pageId: number): Promise<string | null> {
  // development mode has no stored documents: every page starts empty
  if (isDevelopmentMode()) return withDevDelay(null);
  try {
    const body = await apiRequest<{ content_bytea?: string | null }>(`/api/page/${pageId}/content`, { handledStatuses: [401, 403, 404, 500, 502, 503] });
    return body?.content_bytea ?? null;
  } catch (error) {
    if ((error as { status?: number }).status === 404) return null;
    throw error;
  }
}

/** Spec section 7: the raw image with its type and a filename header; answers the URL. */
export function uploadPageImage(projectId: number, pageId: number, file: File): Promise<{ url: string }> {
  // (in development mode only pasted and dropped images get here: the slash-menu image is read locally)
  return apiRequest<{ url: string }>(`/api/project/${projectId}/page/${pageId}/upload`, {
    method: 'POST',
    body: file,
    headers: { 'Content-Type': file.type, 'X-Filename': encodeURIComponent(file.name || 'image') },
    handledStatuses: [400, 401, 403, 404, 413, 500, 502, 503],
  });
}

/** Title sync's rename: failures are the caller's toast ('Failed to update page title'). */
export function syncPageName(pageId: number, name: string): Promise<unknown> {
  if (isDevelopmentMode()) return Promise.resolve(undefined);
  return apiRequest(`/api/page/${pageId}`, { method: 'PATCH', body: { name }, handledStatuses: [400, 401, 403, 404, 409, 500, 502, 503] });
}
