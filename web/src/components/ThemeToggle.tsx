import { usePreferences } from '../app/hooks';
import { effectiveTheme, updatePreferences } from '../preferences/preferences';

export function ThemeToggle() {
  const prefs = usePreferences();
  const dark = effectiveTheme(prefs) === 'dark';
  return (
    <button
      type="button"
      className="icon-button theme-toggle"
      aria-label={dark ? 'Switch to light theme' : 'Switch to dark theme'}
      aria-pressed={dark}
      onClick={() => updatePreferences({ theme: dark ? 'light' : 'dark' })}
    >
      <span aria-hidden="true">{dark ? '☀' : '☾'}</span>
    </button>
  );
}
