// The permissions calls of spec section 7. Failures are reported by the caller with the
// spec's titles, so every error status is handled here (no generic toast).
import { apiRequest } from './client';
import type { ProjectRole } from '../projectView/projectRoles';

export interface PermissionEntry {
  user_email: string;
  role: ProjectRole;
}

const SILENT = { silent: true } as const;

export function listPermissions(projectId: number): Promise<PermissionEntry[]> {
  return apiRequest<PermissionEntry[]>(`/api/rbac/project/${projectId}`, SILENT);
}

export function addPermission(projectId: number, email: string, role: ProjectRole): Promise<PermissionEntry> {
  return apiRequest<PermissionEntry>('/api/rbac/project', { method: 'POST', body: { project_id: projectId, email, role }, ...SILENT });
}

export function changePermission(projectId: number, email: string, newRole: ProjectRole): Promise<PermissionEntry> {
  return apiRequest<PermissionEntry>('/api/rbac/project', { method: 'PATCH', body: { project_id: projectId, email, new_role: newRole }, ...SILENT });
}

export function removePermission(projectId: number, email: string): Promise<unknown> {
  return apiRequest('/api/rbac/project', { method: 'DELETE', body: { project_id: projectId, email }, ...SILENT });
}
