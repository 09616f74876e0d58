// The projects calls of spec section 7.
import { apiRequest } from './client';
import { SAMPLE_PROJECTS, SAMPLE_PAGE_LIST } from './devFixtures';
import { isDevelopmentMode, withDevDelay } from './devMode';
import type { InstallationStatus, Project, ProjectWithPages } from './types';

export function listProjects(): Promise<Project[]> {
  if (isDevelopmentMode()) return withDevDelay(SAMPLE_PROJECTS);
  return apiRequest<Project[]>('/api/projects');
}

export function getProject(projectId: number, handledStatuses?: number[]): Promise<ProjectWithPages> {
  if (isDevelopmentMode()) {
    const project = SAMPLE_PROJECTS.find((p) => p.id === projectId) ?? SAMPLE_PROJECTS[0]!;
    return withDevDelay({ ...project, id: projectId, pages: SAMPLE_PAGE_LIST.pages });
  }
  return apiRequest<ProjectWithPages>(`/api/project?projectId=${encodeURIComponent(projectId)}`, { handledStatuses });
}

/** Whether a project of this repository exists here and the caller may read it (no toast either way). */
export function projectOfRepositoryExists(gitUrl: string): Promise<boolean> {
  if (isDevelopmentMode()) return Promise.resolve(true);
  return apiRequest<ProjectWithPages>(`/api/project?gitUrl=${encodeURIComponent(gitUrl)}`, { silent: true }).then(
    () => true,
    () => false,
  );
}

export function getProjectByGitUrl(gitUrl: string, handledStatuses?: number[]): Promise<ProjectWithPages> {
  return apiRequest<ProjectWithPages>(`/api/project?gitUrl=${encodeURIComponent(gitUrl)}`, { handledStatuses });
}

export function createGithubProject(payload: {
  repo_owner: string;
  repo_name: string;
  name: string;
  language: string;
  is_private: boolean;
}): Promise<Project> {
  return apiRequest<Project>('/api/project/github', { method: 'POST', body: payload, handledStatuses: [400, 403, 404, 409, 500] });
}

export function createEmptyProject(payload: { name: string; is_private: boolean }): Promise<{ id: number }> {
  return apiRequest<{ id: number }>('/api/project', { method: 'POST', body: payload });
}

export function createZipProject(payload: { name: string; is_private: boolean }): Promise<{ id: number }> {
  return apiRequest<{ id: number }>('/api/project/zip', { method: 'POST', body: payload, handledStatuses: [413] });
}

export function uploadProjectZip(projectId: number, file: File): Promise<unknown> {
  const form = new FormData();
  form.append('file', file);
  return apiRequest(`/api/project/${projectId}/upload-zip`, { method: 'POST', body: form, handledStatuses: [403, 500, 413] });
}

export function updateProject(
  projectId: number,
  changes: Partial<Pick<Project, 'name' | 'description' | 'visibility'>>,
): Promise<Project> {
  return apiRequest<Project>(`/api/project/${projectId}`, { method: 'PATCH', body: changes });
}

export function deleteProject(projectId: number): Promise<unknown> {
  return apiRequest(`/api/project/${projectId}`, { method: 'DELETE' });
}

export function installationStatus(owner: string, repo: string): Promise<InstallationStatus> {
  return apiRequest<InstallationStatus>(
    `/api/github/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/installation/status`,
    { handledStatuses: [400, 404, 500, 502, 503] },
  );
}

/** The generation run of a project (plugins/generation): its status, why it stopped, its history. */
export interface GenerationRun {
  status?: string;
  stage?: string;
  message?: string;
  /** The run stopped at a failure; a writer may retry it. */
  failed?: boolean;
}

export function getGenerationRun(projectId: number): Promise<GenerationRun> {
  return apiRequest<GenerationRun>(`/api/project/${projectId}/generation`, { silent: true });
}

/** Runs a failed generation again from the stage that failed (writers). */
export function retryGeneration(projectId: number): Promise<{ stage: string }> {
  return apiRequest<{ stage: string }>(`/api/project/${projectId}/generation/retry`, { method: 'POST', body: {}, handledStatuses: [409] });
}
