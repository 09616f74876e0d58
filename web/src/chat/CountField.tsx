// A result count (docsN or codeN): digits only, spaces and other characters refused as
// they are typed, pasted text reduced to its digits, capped at 1000; empty means 0.
import { useEffect, useState, type KeyboardEvent } from 'react';
import { CHAT_COUNT_MAX, CHAT_COUNT_MIN, countOf, isBlockedCountKey, sanitizeCountText } from './chatSettings';

interface Props {
  id: string;
  label: string;
  value: number;
  onChange: (value: number) => void;
}

export function CountField({ id, label, value, onChange }: Props) {
  const [text, setText] = useState(String(value));

  // A change from outside (another tab's settings, a reset) shows up here.
  useEffect(() => {
    setText((current) => (countOf(current) === value ? current : String(value)));
  }, [value]);

  const refuse = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return; // copy, paste, select all
    if (isBlockedCountKey(event.key)) event.preventDefault();
  };

  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>{label}</label>
      <input id={id} type="text" inputMode="numeric" pattern="[0-9]*" autoComplete="off" value={text}
        aria-describedby={`${id}-hint`}
        onKeyDown={refuse}
        onChange={(e) => {
          const clean = sanitizeCountText(e.target.value);
          setText(clean);
          onChange(countOf(clean));
        }}
        onBlur={() => setText(String(countOf(text)))} />
      <span id={`${id}-hint`} className="field__hint">{CHAT_COUNT_MIN} to {CHAT_COUNT_MAX}</span>
    </div>
  );
}
