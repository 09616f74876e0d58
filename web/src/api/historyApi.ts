// Page history (plugins/collab): versions, a version compared with the current page, restore.
// Silent: the History panel says what failed in place of a toast.
import { apiRequest } from './client';

export interface VersionAuthor { id: string; name: string }
export interface PageVersion { id: number; created_at: string; authors: VersionAuthor[]; label: string | null; kind: string }
export interface HistoryPage { versions: PageVersion[]; next_cursor: number | null }
export interface PmNode { type: string; text?: string; content?: PmNode[]; attrs?: Record<string, unknown> }
export interface TextRun { op: 'equal' | 'insert' | 'delete'; text: string }
export type DiffBlock =
  | { change: 'same' | 'added' | 'removed'; block: PmNode }
  | { change: 'changed'; before: PmNode; after: PmNode; text: TextRun[] };
export interface VersionDiff { added: number; removed: number; changed: number; blocks: DiffBlock[] }

export function listHistory(pageId: number, cursor?: number | null): Promise<HistoryPage> {
  const query = cursor ? `?cursor=${cursor}` : '';
  return apiRequest<HistoryPage>(`/api/page/${pageId}/history${query}`, { silent: true });
}

/** The version compared with the current page: "added" is in the version only. */
export function diffWithCurrent(pageId: number, versionId: number): Promise<VersionDiff> {
  return apiRequest<VersionDiff>(`/api/page/${pageId}/history/${versionId}/diff?against=current`, { silent: true });
}

export function restoreVersion(pageId: number, versionId: number): Promise<{ restored: number; before_version: number }> {
  return apiRequest(`/api/page/${pageId}/history/${versionId}/restore`, { method: 'POST', body: {}, silent: true });
}
