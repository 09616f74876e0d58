// Keyboard use of a popup menu: focus moves to the first item when it opens, Arrow
// keys, Home and End move between items, Escape closes it and returns to its button.
import { useEffect, useRef, type KeyboardEvent } from 'react';

const ITEMS = '[role^="menuitem"]';

export function useMenuKeyboard(open: boolean, close: () => void) {
  const list = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (open) list.current?.querySelector<HTMLElement>(ITEMS)?.focus();
  }, [open]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (!open) return;
    if (event.key === 'Escape') {
      event.stopPropagation();
      close();
      trigger.current?.focus();
      return;
    }
    const items = Array.from(list.current?.querySelectorAll<HTMLElement>(ITEMS) ?? []);
    const index = items.indexOf(document.activeElement as HTMLElement);
    let next: number | null = null;
    if (event.key === 'ArrowDown') next = (index + 1) % items.length;
    else if (event.key === 'ArrowUp') next = (index - 1 + items.length) % items.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = items.length - 1;
    const target = next === null ? undefined : items[next];
    if (target) {
      event.preventDefault();
      target.focus();
    }
  };

  return { list, trigger, onKeyDown };
}
