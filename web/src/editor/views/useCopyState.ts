// Copy button feedback (spec section 4): Copy, Copied or Failed, back to Copy after 1.5 s.
import { useEffect, useRef, useState } from 'react';
import { COPY_RESET_MS } from '../rules/editorMessages';

export type CopyLabel = 'Copy' | 'Copied' | 'Failed';

export function useCopyState(): [CopyLabel, (text: string) => Promise<void>] {
  const [label, setLabel] = useState<CopyLabel>('Copy');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async (text: string) => {
    let ok = false;
    try {
      await navigator.clipboard.writeText(text);
      ok = true;
    } catch {
      ok = false;
    }
    setLabel(ok ? 'Copied' : 'Failed');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setLabel('Copy'), COPY_RESET_MS);
  };
  return [label, copy];
}
