// The value of a token just created, shown this once with a Copy button.
import { useId } from 'react';
import { useCopyState } from '../editor/views/useCopyState';
import type { CreatedToken } from './tokensApi';

export function NewTokenNotice({ token, onDone }: { token: CreatedToken; onDone: () => void }) {
  const [label, copy] = useCopyState();
  const heading = useId();
  return (
    <section className="card tokens-page__section tokens-new" aria-labelledby={heading}>
      <h2 id={heading}>Token “{token.name}” created</h2>
      <p>Copy it now: it is shown only this once. Send it as <code>Authorization: Bearer</code> with each request.</p>
      <div className="tokens-new__value">
        <code data-testid="new-token-value">{token.token}</code>
        <button type="button" className="button button--primary" onClick={() => void copy(token.token)}>
          {label === 'Copy' ? 'Copy' : label}
        </button>
      </div>
      <span className="visually-hidden" role="status">{label === 'Copied' ? 'Token copied to the clipboard' : label === 'Failed' ? 'Copying failed' : ''}</span>
      <div className="modal__actions">
        <button type="button" className="button button--ghost" onClick={onDone}>Done</button>
      </div>
    </section>
  );
}
