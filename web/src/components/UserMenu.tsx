// The signed-in user's menu: name or email, Dark Mode, background gradient, API tokens,
// Log Out.
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { usePreferences, useSessionUser } from '../app/hooks';
import { effectiveTheme, updatePreferences } from '../preferences/preferences';
import { logout } from '../session/sessionStore';
import { useMenuKeyboard } from './useMenuKeyboard';

export function UserMenu() {
  const user = useSessionUser();
  const prefs = usePreferences();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const { list, trigger, onKeyDown } = useMenuKeyboard(open, () => setOpen(false));

  useEffect(() => {
    if (!open) return;
    const onDown = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const label = user?.name || user?.email || 'Account';
  const dark = effectiveTheme(prefs) === 'dark';
  return (
    <div className="menu" ref={root} onKeyDown={onKeyDown}>
      <button ref={trigger} type="button" className="avatar-button" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)}>
        {user?.image ? <img src={user.image} alt="" className="avatar" /> : <span className="avatar avatar--initial" aria-hidden="true">{label.slice(0, 1).toUpperCase()}</span>}
        <span className="avatar-button__label">{label}</span>
      </button>
      {open && (
        <div className="menu__list" role="menu" aria-label="User menu" ref={list}>
          <div className="menu__caption" role="presentation">{user?.email ?? label}</div>
          <button
            type="button"
            role="menuitemcheckbox"
            aria-checked={dark}
            className="menu__item"
            onClick={() => updatePreferences({ theme: dark ? 'light' : 'dark' })}
          >
            <span>Dark Mode</span>
            <span className={`switch${dark ? ' switch--on' : ''}`} aria-hidden="true" />
          </button>
          <button
            type="button"
            role="menuitemcheckbox"
            aria-checked={prefs.showGradient}
            className="menu__item"
            onClick={() => updatePreferences({ showGradient: !prefs.showGradient })}
          >
            <span>Background gradient</span>
            <span className={`switch${prefs.showGradient ? ' switch--on' : ''}`} aria-hidden="true" />
          </button>
          <button
            type="button"
            role="menuitem"
            className="menu__item"
            onClick={() => {
              setOpen(false);
              navigate('/settings/tokens');
            }}
          >
            API tokens
          </button>
          <button
            type="button"
            role="menuitem"
            className="menu__item"
            onClick={async () => {
              setOpen(false);
              await logout();
              navigate('/login');
            }}
          >
            Log Out
          </button>
        </div>
      )}
    </div>
  );
}
