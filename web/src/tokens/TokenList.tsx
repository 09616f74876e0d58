// The signed-in user's tokens: name, scope, created, last used, expiry, and Revoke.
import { useId } from 'react';
import type { AccessToken } from './tokensApi';
import { formatTime, isExpired, scopeLabel } from './tokenFormat';

function Time({ iso, none }: { iso: string | null; none: string }) {
  return iso ? <time dateTime={iso}>{formatTime(iso, none)}</time> : <>{none}</>;
}

export function TokenList({ tokens, onRevoke }: { tokens: AccessToken[] | null; onRevoke: (token: AccessToken) => void }) {
  const heading = useId();
  return (
    <section className="card tokens-page__section" aria-labelledby={heading}>
      <h2 id={heading}>Your tokens</h2>
      {tokens === null && <p role="status" className="muted">Loading tokens...</p>}
      {tokens?.length === 0 && <p className="muted">You have no tokens.</p>}
      {tokens && tokens.length > 0 && (
        <div className="tokens-table__wrap">
          <table className="tokens-table" aria-labelledby={heading}>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scope</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col"><span className="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((token) => (
                <tr key={token.id} data-testid="token-row">
                  <th scope="row" className="tokens-table__name">{token.name}</th>
                  <td>{scopeLabel(token.scope)}</td>
                  <td><Time iso={token.createdAt} none="" /></td>
                  <td><Time iso={token.lastUsedAt} none="Never" /></td>
                  <td>
                    <Time iso={token.expiresAt} none="Never" />
                    {isExpired(token) && <span className="tokens-table__expired"> (expired)</span>}
                  </td>
                  <td>
                    <button type="button" className="button button--ghost button--danger-text" aria-label={`Revoke ${token.name}`} onClick={() => onRevoke(token)}>
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
