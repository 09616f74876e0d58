// POST /lab/rag on the retrieval service (spec section 7). The answer is a Markdown
// string or a list of result items; anything else counts as a failure.
import { apiRequest } from '../api/client';
import type { RagRequest } from './chatRequest';

export interface RagItem {
  source: 'code' | 'docs' | string;
  content: string;
  git_url?: string | null;
  description?: string | null;
  page_id?: number | null;
  project_id?: number | null;
  /** Extra fields docsd adds to code items (docs/api.md): where the chunk is. */
  path?: string | null;
  start_line?: number | null;
  end_line?: number | null;
}

export type RagAnswer = { kind: 'markdown'; markdown: string } | { kind: 'items'; items: RagItem[] };

// The screen reports every failure itself ('Error fetching response'), so no status
// also raises the generic error toast.
const EVERY_ERROR_STATUS = Array.from({ length: 200 }, (_, i) => 400 + i);

function isItem(value: unknown): value is RagItem {
  const item = value as RagItem | null;
  return !!item && typeof item === 'object' && typeof item.content === 'string' && typeof item.source === 'string';
}

export function toAnswer(body: unknown): RagAnswer {
  if (typeof body === 'string') return { kind: 'markdown', markdown: body };
  if (Array.isArray(body) && body.every(isItem)) return { kind: 'items', items: body };
  throw new Error('unexpected answer from /lab/rag');
}

export async function askRag(request: RagRequest): Promise<RagAnswer> {
  const body = await apiRequest<unknown>('/lab/rag', { method: 'POST', body: request, base: 'rag', handledStatuses: EVERY_ERROR_STATUS });
  return toAnswer(body);
}
