// The chosen page as a tiny store the tree's rows subscribe to: choosing a page
// re-renders the row that loses the mark and the row that gets it, not all 2,000.
import { createContext, useContext, useSyncExternalStore } from 'react';

export interface Selection {
  get: () => number | null;
  set: (id: number | null) => void;
  subscribe: (listener: () => void) => () => void;
}

export function createSelection(initial: number | null): Selection {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(id) {
      if (id === value) return;
      value = id;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const SelectionContext = createContext<Selection>(createSelection(null));

/** Whether page `id` is the chosen one; re-renders only when that answer changes. */
export function useIsSelected(id: number): boolean {
  const selection = useContext(SelectionContext);
  return useSyncExternalStore(selection.subscribe, () => selection.get() === id);
}
