// The address of a page of a project (spec section 2): repository projects by owner and
// name, every other project by id.
import type { Project } from '../api/types';

export function repositoryOf(gitUrl: string | null | undefined): { owner: string; name: string } | null {
  const match = /github\.com\/([^/]+)\/([^/#?]+?)(?:\.git)?\/?$/.exec(gitUrl ?? '');
  return match ? { owner: match[1]!, name: match[2]! } : null;
}

export function pageAddress(project: Pick<Project, 'id' | 'type' | 'git_url'>, pageId: number | null): string {
  const repo = project.type === 'github' ? repositoryOf(project.git_url) : null;
  const base = repo ? `/github/${repo.owner}/${repo.name}` : `/projects/${project.id}`;
  return pageId === null ? base : `${base}/${pageId}`;
}
