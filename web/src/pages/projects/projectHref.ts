import type { Project } from '../../api/types';
import { parseGithubUrl } from '../../spec/validation';

/** Repository projects open by their repository URL, others by id (and default page). */
export function projectHref(project: Pick<Project, 'id' | 'type' | 'git_url' | 'default_page_id'>): string {
  if (project.type === 'github' && project.git_url) {
    const repo = parseGithubUrl(project.git_url);
    if (repo) return `/github/${repo.owner}/${repo.repo}`;
  }
  return project.default_page_id ? `/projects/${project.id}/${project.default_page_id}` : `/projects/${project.id}`;
}
