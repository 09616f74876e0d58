// The page calls the shell needs now (the page view issue adds the rest); development
// mode follows the spec: random ids 20..1019, sample pages, no-op update, sample delete.
import { apiRequest } from './client';
import { DEMO_PAGE, SAMPLE_DELETE_RESULT } from './devFixtures';
import { isDevelopmentMode, randomDevPageId, withDevDelay } from './devMode';
import type { Page } from './types';

export function createPage(projectId: number, parentPageId: number | null): Promise<{ id: number }> {
  if (isDevelopmentMode()) return withDevDelay({ id: randomDevPageId() });
  return apiRequest<{ id: number }>(`/api/project/${projectId}/page`, { method: 'POST', body: { parent_page_id: parentPageId } });
}

export function getPage(pageId: number): Promise<Page | typeof DEMO_PAGE> {
  if (isDevelopmentMode()) return withDevDelay({ ...DEMO_PAGE, page_id: pageId });
  return apiRequest<Page>(`/api/page/${pageId}`);
}

export function updatePage(pageId: number, changes: Partial<Pick<Page, 'name' | 'parent_id'>>): Promise<unknown> {
  if (isDevelopmentMode()) return Promise.resolve(undefined);
  return apiRequest(`/api/page/${pageId}`, { method: 'PATCH', body: changes });
}

export function deletePage(pageId: number): Promise<unknown> {
  if (isDevelopmentMode()) return withDevDelay(SAMPLE_DELETE_RESULT);
  return apiRequest(`/api/page/${pageId}`, { method: 'DELETE' });
}
