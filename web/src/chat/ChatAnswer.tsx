// An answer as a read-only document: the Markdown answer rendered, or the result list.
import { useMemo } from 'react';
import { markdownToHtml } from './markdown';
import { ResultItem } from './ResultItem';
import type { RagAnswer } from './ragApi';

interface Props {
  answer: RagAnswer;
  projectName: (id: number | null | undefined) => string | null;
}

export function ChatAnswer({ answer, projectName }: Props) {
  const html = useMemo(() => (answer.kind === 'markdown' ? markdownToHtml(answer.markdown) : ''), [answer]);
  if (answer.kind === 'markdown') {
    return <div className="chat-answer chat-answer--markdown page-content" data-testid="chat-answer" dangerouslySetInnerHTML={{ __html: html }} />;
  }
  if (answer.items.length === 0) {
    return <p className="chat-answer muted" data-testid="chat-answer">No matching code or docs were found.</p>;
  }
  return (
    <div className="chat-answer" data-testid="chat-answer">
      <p className="muted">{answer.items.length === 1 ? '1 result' : `${answer.items.length} results`}</p>
      <ol className="chat-results">
        {answer.items.map((item, i) => (
          <li key={i}><ResultItem item={item} projectName={projectName(item.project_id)} /></li>
        ))}
      </ol>
    </div>
  );
}
