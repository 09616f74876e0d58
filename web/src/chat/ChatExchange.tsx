// One question and what came back: a spinner while loading, the answer document, or
// the spec's 'Error fetching response' alert. A newly arrived answer asks the log to
// scroll to its start, so a long answer is read from the top.
import { useLayoutEffect, useRef } from 'react';
import { ChatAnswer } from './ChatAnswer';
import type { ChatEntry } from './useChatLog';
import type { RagAnswer } from './ragApi';

export const ERROR_FETCHING_RESPONSE = 'Error fetching response';

export function answeredLabel(answer: RagAnswer): string {
  if (answer.kind === 'markdown') return 'Answer ready';
  return answer.items.length === 1 ? '1 result' : `${answer.items.length} results`;
}

interface Props {
  entry: ChatEntry;
  projectName: (id: number | null | undefined) => string | null;
  onArrived: (replyStart: HTMLElement) => void;
}

export function ChatExchange({ entry, projectName, onArrived }: Props) {
  const start = useRef<HTMLDivElement>(null);
  const arrived = entry.status !== 'loading';

  useLayoutEffect(() => {
    if (arrived && start.current) onArrived(start.current);
    // Only the arrival counts, not a new callback.
  }, [arrived]);

  return (
    <li className="chat-exchange" data-entry-id={entry.id}>
      <p className="chat-exchange__prompt"><span className="visually-hidden">You asked: </span>{entry.prompt}</p>
      <div ref={start} className="chat-exchange__reply" aria-busy={entry.status === 'loading'}>
        {entry.status === 'loading' && (
          <p className="chat-exchange__loading" role="status">
            <span className="spinner" aria-hidden="true" /> <span>Searching the code and docs...</span>
          </p>
        )}
        {entry.status === 'failed' && (
          <div className="chat-alert" role="alert">
            <strong>{ERROR_FETCHING_RESPONSE}</strong>
            {entry.detail && <span className="chat-alert__detail">{entry.detail}</span>}
          </div>
        )}
        {entry.status === 'answered' && (
          <>
            {/* Screen readers hear that the spinner's wait is over. */}
            <span className="visually-hidden" role="status">{answeredLabel(entry.answer)}</span>
            <ChatAnswer answer={entry.answer} projectName={projectName} />
          </>
        )}
      </div>
    </li>
  );
}
