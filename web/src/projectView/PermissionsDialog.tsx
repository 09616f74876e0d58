// Project permissions (admins only): the users and their roles, invite by email with a
// role, change a role, remove. Admins cannot change or remove themselves. Failures show
// the spec's texts exactly (title 'Error'); the server's detail goes to the console.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Modal } from '../components/Modal';
import { addPermission, changePermission, listPermissions, removePermission, type PermissionEntry } from '../api/rbacApi';
import { ApiError } from '../api/client';
import { MSG } from '../spec/messages';
import { isValidEmail } from '../spec/validation';
import { showToast } from '../toast/toastStore';
import { ROLES, ROLE_LABELS, type ProjectRole } from './projectRoles';

interface Props {
  projectId: number;
  currentEmail: string | null;
  onClose: () => void;
}

function reportError(text: string, error: unknown) {
  const detail = error instanceof ApiError ? error.serverMessage : undefined;
  console.error(text, detail ?? '', error);
  showToast({ title: MSG.errorTitle, text, type: 'error' });
}

export function PermissionsDialog({ projectId, currentEmail, onClose }: Props) {
  const [entries, setEntries] = useState<PermissionEntry[] | null>(null);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<ProjectRole | ''>('');
  const [busy, setBusy] = useState(false);
  const roleId = useId();
  const me = currentEmail?.toLowerCase() ?? null;
  const canInvite = isValidEmail(email) && role !== '' && !busy;

  const reload = () =>
    listPermissions(projectId)
      .then(setEntries)
      .catch((e) => {
        setEntries([]);
        reportError(MSG.failedToFetchPermissions, e);
      });

  useEffect(() => {
    void reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [projectId]);

  const invite = async (event: FormEvent) => {
    event.preventDefault();
    if (!canInvite || !role) return;
    setBusy(true);
    try {
      await addPermission(projectId, email.trim(), role);
      setEmail('');
      setRole('');
      await reload();
    } catch (e) {
      reportError(MSG.failedToAddUser, e);
    } finally {
      setBusy(false);
    }
  };

  const change = async (entry: PermissionEntry, newRole: ProjectRole) => {
    try {
      await changePermission(projectId, entry.user_email, newRole);
    } catch (e) {
      reportError(MSG.failedToUpdateUserRole, e);
    }
    await reload();
  };

  const remove = async (entry: PermissionEntry) => {
    try {
      await removePermission(projectId, entry.user_email);
    } catch (e) {
      reportError(MSG.failedToDeleteUser, e);
    }
    await reload();
  };

  return (
    <Modal title="Project permissions" onClose={onClose}>
      <form className="permissions__invite" onSubmit={invite}>
        <label className="field">
          <span className="field__label">Email</span>
          <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} placeholder="name@example.com" data-autofocus />
        </label>
        <div className="field">
          <label className="field__label" htmlFor={roleId}>Role</label>
          <select id={roleId} value={role} onChange={(e) => setRole(e.target.value as ProjectRole | '')}>
            <option value="">Choose a role</option>
            {ROLES.map((r) => <option key={r} value={r}>{ROLE_LABELS[r]}</option>)}
          </select>
        </div>
        <button type="submit" className="button button--primary" disabled={!canInvite}>Invite</button>
      </form>
      {entries === null ? (
        <p role="status" className="muted">Loading permissions...</p>
      ) : (
        <ul className="permissions__list" aria-label="Users with access">
          {entries.map((entry) => {
            const self = entry.user_email.toLowerCase() === me;
            return (
              <li key={entry.user_email} className="permissions__row" data-testid="permission-row">
                <span className="permissions__email">{entry.user_email}{self ? ' (you)' : ''}</span>
                <select aria-label={`Role of ${entry.user_email}`} value={entry.role} disabled={self}
                  onChange={(e) => void change(entry, e.target.value as ProjectRole)}>
                  {ROLES.map((r) => <option key={r} value={r}>{ROLE_LABELS[r]}</option>)}
                </select>
                <button type="button" className="button button--ghost" disabled={self} aria-label={`Remove ${entry.user_email}`}
                  onClick={() => void remove(entry)}>Remove</button>
              </li>
            );
          })}
        </ul>
      )}
      <div className="modal__actions">
        <button type="button" className="button button--ghost" onClick={onClose}>Close</button>
      </div>
    </Modal>
  );
}
