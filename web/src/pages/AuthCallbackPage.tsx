// Return target after GitHub sign-in: sync the session, record the event, go on.
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { track } from '../analytics/analytics';
import { syncSession } from '../session/sessionStore';
import { MSG } from '../spec/messages';
import { showToast } from '../toast/toastStore';

export default function AuthCallbackPage() {
  const navigate = useNavigate();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    syncSession()
      .then(() => {
        track('Sign In Success', { provider: 'github' });
        navigate('/projects', { replace: true });
      })
      .catch(() => {
        showToast({ title: MSG.loginFailed, text: MSG.unableToStartGithub, type: 'error' });
        navigate('/login', { replace: true });
      });
  }, [navigate]);
  return (
    <main className="center-page">
      <p role="status" className="logging-in"><span className="spinner" aria-hidden="true" /> {MSG.loggingIn}</p>
    </main>
  );
}
