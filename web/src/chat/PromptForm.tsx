// The prompt input at the bottom of the chat: Enter sends (Shift+Enter adds a line),
// only when the rules of spec section 5 allow it.
import type { KeyboardEvent, RefObject } from 'react';

interface Props {
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  enabled: boolean;
  loading: boolean;
  hint: string | null;
  inputRef: RefObject<HTMLTextAreaElement | null>;
}

export function PromptForm({ value, onChange, onSubmit, enabled, loading, hint, inputRef }: Props) {
  const sendable = enabled && !loading;
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (sendable) onSubmit();
  };

  return (
    <form className="chat-prompt" onSubmit={(e) => { e.preventDefault(); if (sendable) onSubmit(); }}>
      <label htmlFor="chat-prompt-input" className="visually-hidden">Ask a question</label>
      <textarea id="chat-prompt-input" ref={inputRef} className="chat-prompt__input" rows={1} value={value}
        placeholder="Ask about the code and docs..." aria-describedby={hint ? 'chat-prompt-hint' : undefined}
        onChange={(e) => onChange(e.target.value)} onKeyDown={onKeyDown} />
      <button type="submit" className="button button--primary" disabled={!sendable}>
        {loading ? <span className="spinner spinner--small" aria-hidden="true" /> : null}
        Send
      </button>
      {hint && <p id="chat-prompt-hint" className="field__hint chat-prompt__hint">{hint}</p>}
    </form>
  );
}
