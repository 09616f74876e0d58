// One line of text edited in place: Enter saves, Escape or a click outside cancels;
// trimmed, whitespace collapsed, at most 120 characters.
import { useEffect, useRef, useState } from 'react';
import { INLINE_TEXT_DEFAULT, INLINE_TEXT_MAX_LENGTH } from '../spec/constants';
import { normalizeInlineText } from '../spec/validation';

interface InlineTextEditorProps {
  value: string | null | undefined;
  onSave: (text: string) => void;
  label: string;
  defaultText?: string;
  maxLength?: number;
}

export function InlineTextEditor({ value, onSave, label, defaultText = INLINE_TEXT_DEFAULT, maxLength = INLINE_TEXT_MAX_LENGTH }: InlineTextEditorProps) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const shown = value?.trim() ? value : defaultText;

  useEffect(() => {
    if (!editing) return;
    input.current?.focus();
    input.current?.select();
    const onDown = (event: MouseEvent) => {
      if (event.target !== input.current) setEditing(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [editing]);

  if (!editing) {
    return (
      <button
        type="button"
        className="inline-text"
        aria-label={`${label}: ${shown}. Edit`}
        onClick={(e) => {
          e.stopPropagation();
          setDraft(value ?? '');
          setEditing(true);
        }}
      >
        {shown}
      </button>
    );
  }
  return (
    <input
      ref={input}
      className="inline-text__input"
      aria-label={label}
      value={draft}
      maxLength={maxLength}
      onClick={(e) => e.stopPropagation()}
      onChange={(e) => setDraft(e.target.value)}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Enter') {
          e.preventDefault();
          setEditing(false);
          onSave(normalizeInlineText(draft, maxLength));
        } else if (e.key === 'Escape') {
          setEditing(false);
        }
      }}
    />
  );
}
