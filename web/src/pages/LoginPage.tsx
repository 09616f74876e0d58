// /login: GitHub, or email then a 6-digit code (resend cooldown 30 s).
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { sendSignInOtp, signInWithOtp, startGithubSignIn } from '../api/authApi';
import { track } from '../analytics/analytics';
import { useSessionUser } from '../app/hooks';
import { Logo } from '../components/Logo';
import { ThemeToggle } from '../components/ThemeToggle';
import { syncSession } from '../session/sessionStore';
import { isTokenUnexpired, storedToken } from '../session/token';
import { OTP_LENGTH, OTP_RESEND_COOLDOWN_MS } from '../spec/constants';
import { MSG } from '../spec/messages';
import { isValidEmail, isValidOtp } from '../spec/validation';
import { showToast } from '../toast/toastStore';
import { CodeSentModal } from './login/CodeSentModal';
import { otpFailureToast } from './login/signInErrors';
import { useCountdown } from './login/useCountdown';
import { useDocumentTitle } from '../app/useDocumentTitle';

type Step = 'choose' | 'email' | 'code';

export default function LoginPage() {
  const user = useSessionUser();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const [step, setStep] = useState<Step>('choose');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [resendAt, setResendAt] = useState<number | null>(null);
  const [showSentModal, setShowSentModal] = useState(false);
  const resendLeft = useCountdown(resendAt);
  const codeInput = useRef<HTMLInputElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const target = (location.state as { from?: string } | null)?.from ?? '/projects';
  useDocumentTitle('Sign in');

  useEffect(() => {
    if (params.get('error')) showToast({ title: MSG.loginFailed, text: MSG.unableToStartGithub, type: 'error' });
  }, [params]);

  useEffect(() => {
    if (step === 'email') emailInput.current?.focus();
  }, [step]);

  const closeSentModal = useCallback(() => {
    setShowSentModal(false);
    setTimeout(() => codeInput.current?.focus(), 0);
  }, []);

  if (user || isTokenUnexpired(storedToken())) return <Navigate to="/projects" replace />;

  const loginWithGithub = async () => {
    setBusy(true);
    try {
      const answer = await startGithubSignIn(`${window.location.origin}/auth-callback`);
      if (!answer?.url) throw new Error('no url');
      window.location.assign(answer.url);
    } catch {
      showToast({ title: MSG.loginFailed, text: MSG.unableToStartGithub, type: 'error' });
      setBusy(false);
    }
  };

  const requestCode = async (resend: boolean) => {
    setBusy(true);
    try {
      await sendSignInOtp(email.trim());
      setResendAt(Date.now() + OTP_RESEND_COOLDOWN_MS);
      if (resend) {
        showToast({ title: MSG.codeResent, text: MSG.codeResentText, type: 'success' });
      } else {
        setStep('code');
        setShowSentModal(true);
      }
    } catch {
      showToast({ title: MSG.failedToRequestOtp, type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const submitEmail = (event: FormEvent) => {
    event.preventDefault();
    if (isValidEmail(email)) void requestCode(false);
  };

  const submitCode = async (event: FormEvent) => {
    event.preventDefault();
    if (!isValidOtp(code)) return;
    setBusy(true);
    try {
      await signInWithOtp(email.trim(), code);
      await syncSession();
      track('Sign In Success', { provider: 'email' });
      navigate(target, { replace: true });
    } catch (error) {
      showToast({ ...otpFailureToast(error), type: 'error' });
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
        <section className="card auth-card" aria-labelledby="login-title">
          <h1 id="login-title">Sign in</h1>
          <p className="muted">Generate, edit and share documentation for your code.</p>

          {step === 'choose' && (
            <div className="stack">
              <button type="button" className="button button--dark button--block" onClick={loginWithGithub} disabled={busy}>
                <GithubMark /> Login via GitHub
              </button>
              <div className="divider"><span>or</span></div>
              <button type="button" className="button button--block" onClick={() => setStep('email')}>
                Login via Email
              </button>
            </div>
          )}

          {step === 'email' && (
            <form className="stack" onSubmit={submitEmail} noValidate>
              <label className="field">
                <span className="field__label">Email</span>
                <input
                  ref={emailInput}
                  type="email"
                  name="email"
                  autoComplete="email"
                  required
                  value={email}
                  onChange={(e) => setEmail(e.target.value)}
                  placeholder="you@example.com"
                />
              </label>
              <button type="submit" className="button button--primary button--block" disabled={busy || !isValidEmail(email)}>
                Send code
              </button>
              <button type="button" className="button button--ghost button--block" onClick={() => setStep('choose')}>
                Back
              </button>
            </form>
          )}

          {step === 'code' && (
            <form className="stack" onSubmit={submitCode} noValidate>
              <p className="muted">Enter the {OTP_LENGTH}-digit code we sent to <strong>{email}</strong>.</p>
              <label className="field">
                <span className="field__label">Verification code</span>
                <input
                  ref={codeInput}
                  className="otp-input"
                  name="otp"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  pattern="\d{6}"
                  maxLength={OTP_LENGTH}
                  value={code}
                  onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, OTP_LENGTH))}
                  aria-describedby="otp-hint"
                />
              </label>
              <span id="otp-hint" className="field__hint">The code is {OTP_LENGTH} digits.</span>
              <button type="submit" className="button button--primary button--block" disabled={busy || !isValidOtp(code)}>
                Verify
              </button>
              <button type="button" className="button button--ghost button--block" onClick={() => void requestCode(true)} disabled={busy || resendLeft > 0}>
                {resendLeft > 0 ? `Resend code in ${resendLeft}s` : 'Resend code'}
              </button>
              <button type="button" className="link-button" onClick={() => { setStep('email'); setCode(''); }}>
                Use a different email
              </button>
            </form>
          )}
          <p className="auth-card__footer muted">
            <Link to="/">Back to Home</Link> · <Link to="/examples">Browse examples</Link>
          </p>
        </section>
      </main>
      {showSentModal && <CodeSentModal email={email.trim()} onClose={closeSentModal} />}
    </div>
  );
}

function GithubMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 16 16" aria-hidden="true" fill="currentColor">
      <path d="M8 0C3.58 0 0 3.58 0 8c0 3.54 2.29 6.53 5.47 7.59.4.07.55-.17.55-.38 0-.19-.01-.82-.01-1.49-2.01.37-2.53-.49-2.69-.94-.09-.23-.48-.94-.82-1.13-.28-.15-.68-.52-.01-.53.63-.01 1.08.58 1.23.82.72 1.21 1.87.87 2.33.66.07-.52.28-.87.51-1.07-1.78-.2-3.64-.89-3.64-3.95 0-.87.31-1.59.82-2.15-.08-.2-.36-1.02.08-2.12 0 0 .67-.21 2.2.82.64-.18 1.32-.27 2-.27.68 0 1.36.09 2 .27 1.53-1.04 2.2-.82 2.2-.82.44 1.1.16 1.92.08 2.12.51.56.82 1.27.82 2.15 0 3.07-1.87 3.75-3.65 3.95.29.25.54.73.54 1.48 0 1.07-.01 1.93-.01 2.2 0 .21.15.46.55.38A8.013 8.013 0 0016 8c0-4.42-3.58-8-8-8z" />
    </svg>
  );
}
