// A small dialog asking for one line of text (used for Rename).
import { useState, type FormEvent } from 'react';
import { Modal } from './Modal';

interface Props {
  title: string;
  label: string;
  initial: string;
  submitLabel: string;
  onSubmit: (value: string) => void;
  onClose: () => void;
}

export function TextPromptDialog({ title, label, initial, submitLabel, onSubmit, onClose }: Props) {
  const [value, setValue] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(value);
  };
  return (
    <Modal title={title} onClose={onClose}>
      <form className="stack" onSubmit={submit}>
        <label className="field">
          <span className="field__label">{label}</span>
          <input value={value} onChange={(e) => setValue(e.target.value)} data-autofocus />
        </label>
        <div className="modal__actions">
          <button type="button" className="button button--ghost" onClick={onClose}>Cancel</button>
          <button type="submit" className="button button--primary">{submitLabel}</button>
        </div>
      </form>
    </Modal>
  );
}
