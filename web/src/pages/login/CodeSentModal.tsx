// Tells the user where the code went, and closes itself after 5 s with a countdown.
import { useEffect, useState } from 'react';
import { Modal } from '../../components/Modal';
import { MODAL_AUTO_CLOSE_MS } from '../../spec/constants';
import { useCountdown } from './useCountdown';

export function CodeSentModal({ email, onClose }: { email: string; onClose: () => void }) {
  const [deadline] = useState(() => Date.now() + MODAL_AUTO_CLOSE_MS);
  const left = useCountdown(deadline);
  useEffect(() => {
    const timer = setTimeout(onClose, MODAL_AUTO_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [onClose]);
  return (
    <Modal title="Check your email" onClose={onClose} dismissOnBackdrop>
      <p>
        We sent a 6-digit code to <strong>{email}</strong>.
      </p>
      <p className="muted" aria-live="polite">This message closes in {left} s.</p>
      <div className="modal__actions">
        <button type="button" className="button button--primary" onClick={onClose} data-autofocus>
          Enter code
        </button>
      </div>
    </Modal>
  );
}
