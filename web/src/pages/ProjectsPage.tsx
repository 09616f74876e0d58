// /projects: the list (sorted by status order, then name), search, user menu and the
// New Project dialog.
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { deleteProject, listProjects, updateProject } from '../api/projectsApi';
import type { Project } from '../api/types';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { NewProjectDialog } from '../components/newProject/NewProjectDialog';
import { ProjectCard } from '../components/ProjectCard';
import { SiteHeader } from '../components/SiteHeader';
import { TextPromptDialog } from '../components/TextPromptDialog';
import { STORAGE_KEYS, readJson, writeJson } from '../storage/localStore';
import { MSG } from '../spec/messages';
import { fuzzyFilter } from '../spec/search';
import { compareProjects } from '../spec/status';
import { descriptionToSave, renameValue } from '../spec/validation';
import { showToast } from '../toast/toastStore';
import { useDocumentTitle } from '../app/useDocumentTitle';

export default function ProjectsPage() {
  const [projects, setProjects] = useState<Project[] | null>(() => readJson<Project[]>(STORAGE_KEYS.projects));
  const [loading, setLoading] = useState(true);
  const [query, setQuery] = useState('');
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<Project | null>(null);
  const [deleting, setDeleting] = useState<Project | null>(null);
  const searchId = useId();
  useDocumentTitle('Projects');

  const store = useCallback((next: Project[]) => {
    setProjects(next);
    writeJson(STORAGE_KEYS.projects, next);
  }, []);

  const reload = useCallback(() => {
    setLoading(true);
    listProjects()
      .then((list) => store(Array.isArray(list) ? list : []))
      .catch(() => showToast({ title: MSG.errorFetchingProjects, type: 'error' }))
      .finally(() => setLoading(false));
  }, [store]);

  useEffect(reload, [reload]);

  const shown = useMemo(
    () => fuzzyFilter([...(projects ?? [])].sort(compareProjects), query, (p) => `${p.name} ${p.description ?? ''}`),
    [projects, query],
  );

  const replace = (updated: Project) => store((projects ?? []).map((p) => (p.id === updated.id ? { ...p, ...updated } : p)));

  const rename = async (project: Project, input: string) => {
    setRenaming(null);
    const name = renameValue(input);
    if (!name || name === project.name) return;
    try {
      replace(await updateProject(project.id, { name }));
    } catch {
      // The client showed the error.
    }
  };

  const describe = async (project: Project, input: string) => {
    const description = descriptionToSave(input);
    try {
      replace(await updateProject(project.id, { description }));
    } catch {
      // The client showed the error.
    }
  };

  const remove = async (project: Project) => {
    setDeleting(null);
    try {
      await deleteProject(project.id);
      store((projects ?? []).filter((p) => p.id !== project.id));
    } catch {
      // The client showed the error.
    }
  };

  return (
    <>
      <SiteHeader />
      <main className="page-container">
        <div className="toolbar">
          <h1 className="toolbar__title">Projects</h1>
          <div className="toolbar__actions">
            <label className="visually-hidden" htmlFor={searchId}>Search projects</label>
            <input id={searchId} type="search" className="search-input" placeholder="Search projects" value={query} onChange={(e) => setQuery(e.target.value)} />
            <button type="button" className="button button--primary" onClick={() => setCreating(true)}>
              Create New Project
            </button>
          </div>
        </div>

        {loading && !projects && <p role="status" className="muted">Loading projects...</p>}
        {projects && projects.length === 0 && !loading && (
          <div className="empty-state card">
            <h2>{MSG.noProjectsTitle}</h2>
            <p className="muted">{MSG.noProjectsText}</p>
          </div>
        )}
        {shown.length > 0 && (
          <ul className="project-grid" aria-label="Projects">
            {shown.map((project) => (
              <ProjectCard key={project.id} project={project} onRename={setRenaming} onDelete={setDeleting} onDescription={describe} />
            ))}
          </ul>
        )}
        {projects && projects.length > 0 && shown.length === 0 && <p className="muted">No project matches “{query}”.</p>}
      </main>

      {creating && <NewProjectDialog onClose={() => setCreating(false)} />}
      {renaming && (
        <TextPromptDialog
          title="Rename project"
          label="Project name"
          initial={renaming.name}
          submitLabel="Rename"
          onSubmit={(value) => void rename(renaming, value)}
          onClose={() => setRenaming(null)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title="Delete project"
          text={`Delete “${deleting.name}” and all of its pages? This cannot be undone.`}
          confirmLabel="Delete"
          danger
          onConfirm={() => void remove(deleting)}
          onClose={() => setDeleting(null)}
        />
      )}
    </>
  );
}
