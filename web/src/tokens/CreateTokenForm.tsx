// The create form of the API tokens screen: name, expiry and scope.
import { useId, useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import { createToken, type CreatedToken, type TokenScope } from './tokensApi';
import { DEFAULT_EXPIRY_DAYS, EXPIRY_CHOICES, MAX_TOKEN_NAME_CHARS, tokenNameProblem } from './tokenFormat';

const NEVER = 'never';

export function CreateTokenForm({ onCreated }: { onCreated: (token: CreatedToken) => void }) {
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState(String(DEFAULT_EXPIRY_DAYS));
  const [scope, setScope] = useState<TokenScope>('read');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { name: useId(), expiry: useId(), error: useId(), heading: useId() };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = tokenNameProblem(name);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const created = await createToken({ name: name.trim(), expiresInDays: expiry === NEVER ? null : Number(expiry), scope });
      setName('');
      onCreated(created);
    } catch (e) {
      setError(e instanceof ApiError ? (e.serverMessage ?? e.message) : 'The token could not be created. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card tokens-page__section" aria-labelledby={ids.heading}>
      <h2 id={ids.heading}>Create a token</h2>
      <form className="tokens-form" onSubmit={(e) => void submit(e)} noValidate>
        <div className="field tokens-form__name">
          <label className="field__label" htmlFor={ids.name}>Token name</label>
          <input
            id={ids.name}
            value={name}
            maxLength={MAX_TOKEN_NAME_CHARS}
            placeholder="CI docs sync"
            aria-invalid={error !== null}
            aria-describedby={ids.error}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={ids.expiry}>Expires after</label>
          <select id={ids.expiry} value={expiry} onChange={(e) => setExpiry(e.target.value)}>
            {EXPIRY_CHOICES.map((choice) => (
              <option key={choice.label} value={choice.days === null ? NEVER : String(choice.days)}>{choice.label}</option>
            ))}
          </select>
        </div>
        <fieldset className="segmented tokens-form__scope">
          <legend className="field__label">Scope</legend>
          {(['read', 'write'] as const).map((option) => (
            <label key={option} className={`segmented__option${scope === option ? ' segmented__option--active' : ''}`}>
              <input type="radio" name="token-scope" value={option} checked={scope === option} onChange={() => setScope(option)} />
              {option === 'read' ? 'Read only' : 'Read and write'}
            </label>
          ))}
        </fieldset>
        <p id={ids.error} className="field__error tokens-form__error" role="alert">{error ?? ''}</p>
        <div className="tokens-form__actions">
          <button type="submit" className="button button--primary" disabled={busy}>{busy ? 'Creating...' : 'Create token'}</button>
        </div>
      </form>
    </section>
  );
}
