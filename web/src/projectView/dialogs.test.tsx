import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PermissionsDialog } from './PermissionsDialog';
import { SettingsDialog } from './SettingsDialog';
import { ProjectSidebar } from './ProjectSidebar';
import { DEFAULT_VIEW_SETTINGS } from './viewSettings';
import { capabilitiesOf } from './projectRoles';
import { scriptFetch } from '../test/fetchMock';
import { currentToast, dismissToast } from '../toast/toastStore';
import type { ProjectWithPages } from '../api/types';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const entries = [
  { user_email: 'me@example.com', role: 'admin' },
  { user_email: 'bob@example.com', role: 'read' },
];

describe('permissions dialog', () => {
  it('lists users, keeps the admin from changing themselves, invites only with an email and a role', async () => {
    const { calls } = scriptFetch({ body: entries }, { status: 201, body: { user_email: 'ann@example.com', role: 'write' } }, { body: entries });
    render(<PermissionsDialog projectId={7} currentEmail="Me@example.com" onClose={() => {}} />);
    expect(await screen.findByLabelText('Role of bob@example.com')).toBeEnabled();
    expect(screen.getByLabelText('Role of me@example.com')).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Remove me@example.com' })).toBeDisabled();
    const invite = screen.getByRole('button', { name: 'Invite' });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'not-an-email' } });
    fireEvent.change(screen.getByLabelText('Role'), { target: { value: 'write' } });
    expect(invite).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ann@example.com' } });
    expect(invite).toBeEnabled();
    fireEvent.click(invite);
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(JSON.parse(String(calls[1]!.init.body))).toEqual({ project_id: 7, email: 'ann@example.com', role: 'write' });
  });

  // Spec section 8: title 'Error' and exactly these texts (no server detail appended).
  it.each([
    ['Failed to fetch project permissions', [{ status: 500, body: { error: { code: 'x', message: 'boom' } } }], async () => {}],
    ['Failed to add user', [{ body: entries }, { status: 409, body: { error: { message: 'already has access' } } }, { body: entries }], async () => {
      fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'ann@example.com' } });
      fireEvent.change(screen.getByLabelText('Role'), { target: { value: 'read' } });
      fireEvent.click(screen.getByRole('button', { name: 'Invite' }));
    }],
    ['Failed to delete user', [{ body: entries }, { status: 403, body: { error: { message: 'Admins cannot change or remove themselves' } } }, { body: entries }], async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Remove bob@example.com' }));
    }],
    ['Failed to update user role', [{ body: entries }, { status: 422, body: { error: { message: 'bad role' } } }, { body: entries }], async () => {
      fireEvent.change(await screen.findByLabelText('Role of bob@example.com'), { target: { value: 'write' } });
    }],
  ] as const)('shows the error %j', async (text, answers, act) => {
    cleanup();
    const toast = currentToast();
    if (toast) dismissToast(toast.id);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    scriptFetch(...answers);
    render(<PermissionsDialog projectId={7} currentEmail="me@example.com" onClose={() => {}} />);
    await act();
    await waitFor(() => expect(currentToast()).not.toBeNull());
    expect(currentToast()).toMatchObject({ title: 'Error', text });
  });
});

describe('settings dialog', () => {
  it('asks before changing visibility; wide-only settings', () => {
    const onVisibility = vi.fn();
    const props = { isPrivate: true, canChangeVisibility: true, settings: DEFAULT_VIEW_SETTINGS, onSettings: () => {}, onVisibility, onClose: () => {} };
    const { rerender } = render(<SettingsDialog {...props} wide={false} />);
    expect(screen.queryByRole('switch', { name: 'Table of contents' })).toBeNull();
    fireEvent.click(screen.getByRole('switch', { name: 'Private' }));
    expect(onVisibility).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Make public' }));
    expect(onVisibility).toHaveBeenCalledWith('public');
    rerender(<SettingsDialog {...props} wide />);
    expect(screen.getByRole('switch', { name: 'Table of contents' })).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Sidebar background' })).toBeInTheDocument();
  });
});

const project: ProjectWithPages = {
  id: 7, type: 'user', name: 'Docs', status: 'READY', visibility: 'public', rag_status: 'active', default_page_id: 1,
  pages: [
    { id: 1, project_id: 7, parent_id: 0, name: 'Overview', type: 'generated' },
    { id: 2, project_id: 7, parent_id: 1, name: 'Setup', type: 'generated' },
  ],
};

function renderSidebar(role: 'read' | 'write' | 'admin' | null, signedIn = true) {
  const noop = () => {};
  return render(
    <MemoryRouter>
      <ProjectSidebar project={project} capabilities={capabilitiesOf(role, signedIn)} selectedId={1} background
        onRenameProject={noop} onNewPage={noop} onInvite={noop} onSettings={noop}
        onSelect={noop} onCreateChild={noop} onRename={noop} onDelete={noop} onMove={noop} />
    </MemoryRouter>,
  );
}

describe('sidebar controls by role', () => {
  it.each([
    ['read', false, false],
    ['write', true, false],
    ['admin', true, true],
  ] as const)('%s: edit controls %s, Invite %s', (role, edit, invite) => {
    renderSidebar(role);
    expect(screen.queryByRole('button', { name: 'New page' }) !== null).toBe(edit);
    expect(screen.queryByRole('button', { name: 'Delete Overview' }) !== null).toBe(edit);
    expect(screen.queryByRole('button', { name: 'Invite' }) !== null).toBe(invite);
    expect(document.querySelectorAll('[draggable="true"]').length > 0).toBe(edit);
  });

  it("'Log In' is the header's (SiteHeader.test.tsx), not the sidebar's", () => {
    renderSidebar(null, false);
    expect(screen.queryByRole('link', { name: 'Log In' })).toBeNull();
  });

  it('search shows the count and stops dragging; Ask AI carries the project', () => {
    renderSidebar('admin');
    expect(screen.getByRole('link', { name: 'Ask AI (Beta)' })).toHaveAttribute('href', '/chat');
    fireEvent.change(screen.getByPlaceholderText('Search pages'), { target: { value: 'setp' } });
    expect(screen.getByText('Showing 1 of 2 pages')).toBeInTheDocument();
    // The tree stays mounted but parked (not drawn) while searching; nothing shown can be dragged.
    const shown = [...document.querySelectorAll('[draggable="true"]')].filter((el) => !el.closest('.page-tree__parked'));
    expect(shown).toHaveLength(0);
  });
});
