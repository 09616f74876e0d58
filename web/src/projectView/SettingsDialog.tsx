// Settings of the page view: Private toggle (admins; asks for confirmation), Dark mode,
// and on wide screens Sidebar background and Table of contents.
import { useState } from 'react';
import { Modal } from '../components/Modal';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { usePreferences } from '../app/hooks';
import { effectiveTheme, updatePreferences } from '../preferences/preferences';
import type { ViewSettings } from './viewSettings';

interface Props {
  isPrivate: boolean;
  canChangeVisibility: boolean;
  wide: boolean;
  settings: ViewSettings;
  onSettings: (settings: ViewSettings) => void;
  onVisibility: (visibility: 'private' | 'public') => void;
  onClose: () => void;
}

export function visibilityConfirmText(makePrivate: boolean): { title: string; text: string; confirm: string } {
  return makePrivate
    ? { title: 'Make project private?', text: 'Only users you invite will be able to read this project.', confirm: 'Make private' }
    : { title: 'Make project public?', text: 'Anyone with the link will be able to read this project.', confirm: 'Make public' };
}

function Toggle({ label, checked, disabled, onChange }: { label: string; checked: boolean; disabled?: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className="settings__toggle">
      <input type="checkbox" role="switch" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

export function SettingsDialog({ isPrivate, canChangeVisibility, wide, settings, onSettings, onVisibility, onClose }: Props) {
  const prefs = usePreferences();
  const [pending, setPending] = useState<boolean | null>(null);
  const confirm = pending === null ? null : visibilityConfirmText(pending);
  return (
    <>
      <Modal title="Settings" onClose={onClose}>
        <div className="stack">
          <Toggle label="Private" checked={isPrivate} disabled={!canChangeVisibility} onChange={(v) => setPending(v)} />
          <Toggle label="Dark mode" checked={effectiveTheme(prefs) === 'dark'} onChange={(v) => updatePreferences({ theme: v ? 'dark' : 'light' })} />
          {wide && (
            <>
              <Toggle label="Sidebar background" checked={settings.sidebarBackground} onChange={(v) => onSettings({ ...settings, sidebarBackground: v })} />
              <Toggle label="Table of contents" checked={settings.showToc} onChange={(v) => onSettings({ ...settings, showToc: v })} />
            </>
          )}
        </div>
        <div className="modal__actions">
          <button type="button" className="button button--ghost" onClick={onClose}>Close</button>
        </div>
      </Modal>
      {confirm && pending !== null && (
        <ConfirmDialog title={confirm.title} text={confirm.text} confirmLabel={confirm.confirm}
          onClose={() => setPending(null)}
          onConfirm={() => {
            onVisibility(pending ? 'private' : 'public');
            setPending(null);
          }} />
      )}
    </>
  );
}
