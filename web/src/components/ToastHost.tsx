// Renders the global toast at the bottom of the screen: auto-hides after its duration
// and fades out for 250 ms, or closes with its close button.
import { useEffect, useState } from 'react';
import { useToast } from '../app/hooks';
import { dismissToast } from '../toast/toastStore';
import { TOAST_FADE_OUT_MS } from '../spec/constants';

export function ToastHost() {
  const toast = useToast();
  const [leaving, setLeaving] = useState(false);

  useEffect(() => {
    if (!toast) return;
    setLeaving(false);
    const fade = setTimeout(() => setLeaving(true), toast.durationMs);
    const remove = setTimeout(() => dismissToast(toast.id), toast.durationMs + TOAST_FADE_OUT_MS);
    return () => {
      clearTimeout(fade);
      clearTimeout(remove);
    };
  }, [toast]);

  if (!toast) return null;
  const close = () => {
    setLeaving(true);
    setTimeout(() => dismissToast(toast.id), TOAST_FADE_OUT_MS);
  };
  return (
    <div className="toast-region" aria-live="polite">
      <div
        className={`toast toast--${toast.type}${leaving ? ' toast--leaving' : ''}`}
        role={toast.type === 'error' ? 'alert' : 'status'}
        data-testid="toast"
        style={{ transitionDuration: `${TOAST_FADE_OUT_MS}ms` }}
      >
        <div className="toast__body">
          <strong className="toast__title">{toast.title}</strong>
          {toast.text && <span className="toast__text">{toast.text}</span>}
        </div>
        <button type="button" className="icon-button toast__close" aria-label="Close notification" onClick={close}>
          ×
        </button>
      </div>
    </div>
  );
}
