// The global toast: one message at a time, shown at the bottom of the screen.
import { TOAST_DEFAULT_DURATION_MS } from '../spec/constants';

export type ToastType = 'info' | 'success' | 'warning' | 'error';

export interface Toast {
  id: number;
  title: string;
  text?: string;
  type: ToastType;
  durationMs: number;
}

type Listener = () => void;
let current: Toast | null = null;
let nextId = 1;
const listeners = new Set<Listener>();

function emit(): void {
  for (const listener of listeners) listener();
}

export function showToast(toast: { title: string; text?: string; type?: ToastType; durationMs?: number }): void {
  current = {
    id: nextId++,
    title: toast.title,
    text: toast.text,
    type: toast.type ?? 'info',
    durationMs: toast.durationMs ?? TOAST_DEFAULT_DURATION_MS,
  };
  emit();
}

export function dismissToast(id: number): void {
  if (current?.id === id) {
    current = null;
    emit();
  }
}

export function currentToast(): Toast | null {
  return current;
}

export function subscribeToast(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
