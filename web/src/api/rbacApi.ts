// The permissions calls of spec section 7. Failures are reported by the caller with the
// spec's titles, so every error status is handled here (no generic toast).
import { apiRequest } from './client';
import type { ProjectRole } from '../projectView/projectRoles';

export interface PermissionEntry {
  user_email: string;
  role: ProjectRole;
}

const HANDLED = [400, 401, 403, 404, 409, 500];

export function listPermissions(projectId: number): Promise<PermissionEntry[]> {
  return apiRequest<PermissionEntry[]>(`/api/rbac/project/${projectId}`, { handledStatuses: HANDLED });
}

export function addPermission(projectId: number, email: string, role: ProjectRole): Promise<PermissionEntry> {
  return apiRequest<PermissionEntry>('/api/rbac/project', { method: 'POST', body: { project_id: projectId, email, role }, handledStatuses: HANDLED });
}

export function changePermission(projectId: number, email: string, newRole: ProjectRole): Promise<PermissionEntry> {
  return apiRequest<PermissionEntry>('/api/rbac/project', { method: 'PATCH', body: { project_id: projectId, email, new_role: newRole }, handledStatuses: HANDLED });
}

export function removePermission(projectId: number, email: string): Promise<unknown> {
  return apiRequest('/api/rbac/project', { method: 'DELETE', body: { project_id: projectId, email }, handledStatuses: HANDLED });
}
