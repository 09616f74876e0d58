// Entities of the spec (section 3) as the SPA sees them.
import type { ProjectStatus } from '../spec/status';

export interface Project {
  id: number;
  type: 'github' | 'user';
  name: string;
  git_url?: string | null;
  git_repository_id?: number | null;
  github_node_id?: string | null;
  installation_id?: number | null;
  status: ProjectStatus | string | null;
  visibility: 'private' | 'public';
  commit_hash?: string | null;
  description?: string | null;
  rag_status?: 'active' | 'idle';
  default_page_id?: number | null;
  /** The caller's effective role (docs/api.md), null without one. */
  role?: 'read' | 'write' | 'admin' | null;
}

export interface Page {
  id: number;
  project_id: number;
  parent_id?: number | null;
  name: string;
  type: 'file' | 'generated';
  position?: number;
  created_at?: string;
  updated_at?: string;
  content_bytea?: string;
}

export interface ProjectWithPages extends Project {
  pages: Page[];
}

export interface InstallationStatus {
  is_project_already_exists: boolean;
  has_installation_access: boolean;
}

export interface SessionUser {
  id?: string;
  name?: string | null;
  email: string;
  image?: string | null;
  login?: string | null;
}

export interface SessionAnswer {
  user: SessionUser;
  session: { id: string; userId: string; expiresAt: string };
}
