// The conversation: each prompt with its state (loading, answered, failed). Answers are
// appended in order; a late answer still lands on its own entry.
import { useCallback, useRef, useState } from 'react';
import { askRag, type RagAnswer } from './ragApi';
import type { RagRequest } from './chatRequest';
import { ApiError } from '../api/client';

export type ChatEntry =
  | { id: number; prompt: string; status: 'loading' }
  | { id: number; prompt: string; status: 'answered'; answer: RagAnswer }
  | { id: number; prompt: string; status: 'failed'; detail: string | null };

export function useChatLog() {
  const [entries, setEntries] = useState<ChatEntry[]>([]);
  const nextId = useRef(1);

  const ask = useCallback(async (request: RagRequest) => {
    const id = nextId.current++;
    const prompt = request.query;
    setEntries((all) => [...all, { id, prompt, status: 'loading' }]);
    let done: ChatEntry;
    try {
      done = { id, prompt, status: 'answered', answer: await askRag(request) };
    } catch (e) {
      // The server's own words (e.g. a rate limit) help more than nothing.
      done = { id, prompt, status: 'failed', detail: e instanceof ApiError ? (e.serverMessage ?? null) : null };
    }
    setEntries((all) => all.map((entry) => (entry.id === id ? done : entry)));
  }, []);

  const loading = entries.some((e) => e.status === 'loading');
  return { entries, loading, ask };
}
