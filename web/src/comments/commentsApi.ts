// The comment calls (docs/api.md, "Comments").
import { apiRequest } from '../api/client';

export interface CommentAuthor {
  id: string;
  name: string;
}

export interface CommentItem {
  id: number;
  thread_id: number;
  author: CommentAuthor;
  body: string;
  created_at: string;
  edited_at: string | null;
}

export interface CommentThread {
  id: number;
  page_id: number;
  author: CommentAuthor;
  quote: string;
  resolved: boolean;
  resolved_at: string | null;
  resolved_by: CommentAuthor | null;
  detached: boolean;
  created_at: string;
  comments: CommentItem[];
}

export interface PageComments {
  threads: CommentThread[];
  can_comment: boolean;
}

export interface ThreadAnswer {
  thread: CommentThread;
  comment: CommentItem;
}

/** The longest body the server takes (characters). */
export const MAX_COMMENT_CHARS = 10000;

export function listComments(pageId: number): Promise<PageComments> {
  return apiRequest<PageComments>(`/api/page/${pageId}/comments`, { silent: true });
}

export function startThread(pageId: number, body: string, quote: string): Promise<ThreadAnswer> {
  return apiRequest<ThreadAnswer>(`/api/page/${pageId}/comments`, { method: 'POST', body: { body, quote } });
}

export function reply(pageId: number, threadId: number, body: string): Promise<ThreadAnswer> {
  return apiRequest<ThreadAnswer>(`/api/page/${pageId}/comments`, { method: 'POST', body: { body, thread_id: threadId } });
}

export function editComment(commentId: number, body: string): Promise<ThreadAnswer> {
  return apiRequest<ThreadAnswer>(`/api/comment/${commentId}`, { method: 'PATCH', body: { body } });
}

export function setResolved(commentId: number, resolved: boolean): Promise<ThreadAnswer> {
  return apiRequest<ThreadAnswer>(`/api/comment/${commentId}`, { method: 'PATCH', body: { resolved } });
}

export function deleteComment(commentId: number): Promise<unknown> {
  return apiRequest(`/api/comment/${commentId}`, { method: 'DELETE' });
}
