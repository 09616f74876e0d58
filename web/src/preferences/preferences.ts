// Persisted preferences: theme (light or dark; the system's until chosen) and the
// background gradient (on by default).
import { STORAGE_KEYS, readJson, writeJson } from '../storage/localStore';

export type Theme = 'light' | 'dark';

export interface Preferences {
  theme: Theme | null;
  showGradient: boolean;
}

export const DEFAULT_PREFERENCES: Preferences = { theme: null, showGradient: true };

type Listener = () => void;
const listeners = new Set<Listener>();

function load(): Preferences {
  const stored = readJson<Partial<Preferences>>(STORAGE_KEYS.preferences);
  return {
    theme: stored?.theme === 'light' || stored?.theme === 'dark' ? stored.theme : DEFAULT_PREFERENCES.theme,
    showGradient: typeof stored?.showGradient === 'boolean' ? stored.showGradient : DEFAULT_PREFERENCES.showGradient,
  };
}

let current = load();

export function preferences(): Preferences {
  return current;
}

export function subscribePreferences(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function updatePreferences(change: Partial<Preferences>): void {
  current = { ...current, ...change };
  writeJson(STORAGE_KEYS.preferences, current);
  applyPreferences();
  for (const listener of listeners) listener();
}

export function systemTheme(): Theme {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function effectiveTheme(prefs = current): Theme {
  return prefs.theme ?? systemTheme();
}

export function applyPreferences(): void {
  if (typeof document === 'undefined') return;
  const root = document.documentElement;
  root.dataset.theme = effectiveTheme();
  root.dataset.gradient = current.showGradient ? 'on' : 'off';
  root.style.colorScheme = effectiveTheme();
}

export function watchSystemTheme(): void {
  if (typeof matchMedia !== 'function') return;
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    if (current.theme === null) applyPreferences();
    for (const listener of listeners) listener();
  });
}
