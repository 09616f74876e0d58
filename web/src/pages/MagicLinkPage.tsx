// /login/link#token=...: the sign-in link mailed with each code. It signs in even when
// too many wrong codes have locked the account (only the mailbox's owner has the link).
// The token is spent only when the person presses Continue, so a mail scanner that
// opens links cannot use it up; it stays in the fragment, which no server or Referer sees.
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { signInWithMagicLink } from '../api/authApi';
import { track } from '../analytics/analytics';
import { Logo } from '../components/Logo';
import { ThemeToggle } from '../components/ThemeToggle';
import { syncSession } from '../session/sessionStore';
import { MSG } from '../spec/messages';
import { showToast } from '../toast/toastStore';
import { otpFailureToast } from './login/signInErrors';
import { useDocumentTitle } from '../app/useDocumentTitle';

/** The token in a "#token=..." fragment, or "". */
export function linkToken(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
}

export default function MagicLinkPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => linkToken(location.hash));
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  useDocumentTitle('Sign in');

  const signIn = async () => {
    setBusy(true);
    try {
      await signInWithMagicLink(token);
      // The link is spent: keep it out of the history.
      window.history.replaceState(window.history.state, '', window.location.pathname);
      await syncSession();
      track('Sign In Success', { provider: 'email' });
      navigate('/projects', { replace: true });
    } catch (error) {
      showToast({ ...otpFailureToast(error), type: 'error' });
      setFailed(true);
      setBusy(false);
    }
  };

  return (
    <div className="auth-page">
      <header className="site-header site-header--plain">
        <Logo />
        <ThemeToggle />
      </header>
      <main className="auth-page__main">
        <section className="card auth-card" aria-labelledby="link-title">
          <h1 id="link-title">Sign in</h1>
          {!token || failed ? (
            <div className="stack">
              <p className="muted">{token ? 'This sign-in link cannot be used any more.' : 'This sign-in link is incomplete.'} Request a new code to sign in.</p>
              <Link className="button button--primary button--block" to="/login">Back to sign in</Link>
            </div>
          ) : (
            <div className="stack">
              <p className="muted">Continue to sign in with the link from your email.</p>
              <button type="button" className="button button--primary button--block" onClick={() => void signIn()} disabled={busy}>
                {busy ? MSG.loggingIn : 'Continue'}
              </button>
            </div>
          )}
          <p className="auth-card__footer muted">
            <Link to="/">Back to Home</Link>
          </p>
        </section>
      </main>
    </div>
  );
}
