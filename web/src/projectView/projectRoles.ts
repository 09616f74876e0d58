// Spec section 6: what each project role may do in the page view.
export type ProjectRole = 'read' | 'write' | 'admin';

export const ROLE_LABELS: Record<ProjectRole, string> = { read: 'Viewer', write: 'Editor', admin: 'Admin' };
export const ROLES: readonly ProjectRole[] = ['read', 'write', 'admin'];

export interface Capabilities {
  signedIn: boolean;
  canEdit: boolean;
  canManageUsers: boolean;
}

export function capabilitiesOf(role: ProjectRole | null | undefined, signedIn: boolean): Capabilities {
  if (!signedIn) return { signedIn, canEdit: false, canManageUsers: false };
  return { signedIn, canEdit: role === 'write' || role === 'admin', canManageUsers: role === 'admin' };
}
