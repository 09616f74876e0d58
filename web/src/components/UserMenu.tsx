// The signed-in user's menu: name or email, Dark Mode, background gradient, Log Out.
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { usePreferences, useSessionUser } from '../app/hooks';
import { effectiveTheme, updatePreferences } from '../preferences/preferences';
import { logout } from '../session/sessionStore';

export function UserMenu() {
  const user = useSessionUser();
  const prefs = usePreferences();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);

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
    <div className="menu" ref={root} onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}>
      <button type="button" className="avatar-button" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)}>
        {user?.image ? <img src={user.image} alt="" className="avatar" /> : <span className="avatar avatar--initial" aria-hidden="true">{label.slice(0, 1).toUpperCase()}</span>}
        <span className="avatar-button__label">{label}</span>
      </button>
      {open && (
        <div className="menu__list" role="menu" aria-label="User menu">
          <div className="menu__caption">{user?.email ?? label}</div>
          <label className="menu__item menu__item--toggle">
            <span>Dark Mode</span>
            <input type="checkbox" role="switch" checked={dark} onChange={(e) => updatePreferences({ theme: e.target.checked ? 'dark' : 'light' })} />
          </label>
          <label className="menu__item menu__item--toggle">
            <span>Background gradient</span>
            <input type="checkbox" role="switch" checked={prefs.showGradient} onChange={(e) => updatePreferences({ showGradient: e.target.checked })} />
          </label>
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
