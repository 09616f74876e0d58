// Loads the project with its pages and runs the tree changes. After every change the
// pages are fetched again, so a failure (only logged, spec section 8) leaves the tree as
// the server has it.
import { useCallback, useEffect, useState } from 'react';
import { getProject, getProjectByGitUrl, updateProject } from '../api/projectsApi';
import { createPage, deletePage, updatePage } from '../api/pagesApi';
import { ApiError } from '../api/client';
import type { Project, ProjectWithPages } from '../api/types';

export type ProjectSource = { by: 'id'; projectId: number } | { by: 'repository'; owner: string; name: string };
export type LoadState = { kind: 'loading' } | { kind: 'ready'; project: ProjectWithPages } | { kind: 'signin' } | { kind: 'notfound' };

const HANDLED = [400, 401, 403, 404];

function load(source: ProjectSource): Promise<ProjectWithPages> {
  return source.by === 'id'
    ? getProject(source.projectId, HANDLED)
    : getProjectByGitUrl(`https://github.com/${source.owner}/${source.name}`, HANDLED);
}

export function useProjectData(source: ProjectSource, key: string) {
  const [state, setState] = useState<LoadState>({ kind: 'loading' });

  useEffect(() => {
    let live = true;
    setState({ kind: 'loading' });
    load(source)
      .then((project) => live && setState({ kind: 'ready', project }))
      .catch((e) => live && setState({ kind: e instanceof ApiError && e.status === 401 ? 'signin' : 'notfound' }));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  const project = state.kind === 'ready' ? state.project : null;
  const projectId = project?.id ?? null;

  const refresh = useCallback(async () => {
    if (projectId === null) return;
    try {
      const fresh = await getProject(projectId, HANDLED);
      setState({ kind: 'ready', project: fresh });
    } catch (e) {
      console.error('Could not reload the project', e);
    }
  }, [projectId]);

  const logged = useCallback(
    async <T,>(what: string, action: () => Promise<T>): Promise<T | null> => {
      try {
        return await action();
      } catch (e) {
        console.error(what, e);
        return null;
      } finally {
        await refresh();
      }
    },
    [refresh],
  );

  return {
    state,
    /** reloads the project (the editor's title sync renamed a page) */
    refetch: refresh,
    createPage: (parentId: number | null) => logged('Page create failed', () => createPage(projectId!, parentId)),
    deletePage: (pageId: number) => logged('Page delete failed', () => deletePage(pageId)),
    movePage: (pageId: number, parentId: number | null) => logged('Page move failed', () => updatePage(pageId, { parent_id: parentId ?? 0 })),
    renamePage: (pageId: number, name: string) => logged('Page rename failed', () => updatePage(pageId, { name })),
    updateProject: (changes: Partial<Pick<Project, 'name' | 'visibility'>>) => logged('Project update failed', () => updateProject(projectId!, changes)),
  };
}
