// A comment body rendered from its tokens: React elements only, so no text becomes HTML.
import { Fragment, type ReactNode } from 'react';
import { parseCommentBody, type CommentToken } from './commentMarkdown';

function render(tokens: CommentToken[]): ReactNode[] {
  return tokens.map((token, index) => {
    switch (token.kind) {
      case 'text': return <Fragment key={index}>{token.text}</Fragment>;
      case 'break': return <br key={index} />;
      case 'code': return <code key={index}>{token.text}</code>;
      case 'bold': return <strong key={index}>{render(token.children)}</strong>;
      case 'italic': return <em key={index}>{render(token.children)}</em>;
      case 'link': return <a key={index} href={token.href} target="_blank" rel="noopener noreferrer nofollow">{render(token.children)}</a>;
      case 'mention': return <span key={index} className="comment-mention">@{token.email}</span>;
    }
  });
}

export function CommentBody({ body }: { body: string }) {
  return <div className="comment-body">{render(parseCommentBody(body))}</div>;
}
