import { Modal } from './Modal';

interface Props {
  title: string;
  text: string;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

export function ConfirmDialog({ title, text, confirmLabel, danger, onConfirm, onClose }: Props) {
  return (
    <Modal title={title} onClose={onClose}>
      <p>{text}</p>
      <div className="modal__actions">
        <button type="button" className="button button--ghost" onClick={onClose} data-autofocus>Cancel</button>
        <button type="button" className={`button ${danger ? 'button--danger' : 'button--primary'}`} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
