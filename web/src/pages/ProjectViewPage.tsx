// The project page view (its own issue builds the tree and editor). For now it loads
// the project by id and shows its name and pages.
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { SiteHeader } from '../components/SiteHeader';
import { getProject, getProjectByGitUrl } from '../api/projectsApi';
import type { ProjectWithPages } from '../api/types';
import { STORAGE_KEYS, writeString } from '../storage/localStore';
import { useDocumentTitle } from '../app/useDocumentTitle';

export default function ProjectViewPage({ by }: { by: 'id' | 'github' | 'owner' }) {
  const { projectId, projectOwner, projectName } = useParams();
  const [project, setProject] = useState<ProjectWithPages | null>(null);
  const [failed, setFailed] = useState(false);
  useDocumentTitle(project?.name ?? 'Project');

  useEffect(() => {
    setFailed(false);
    const load =
      by === 'id'
        ? getProject(Number(projectId), [401, 403, 404])
        : getProjectByGitUrl(`https://github.com/${projectOwner}/${projectName}`);
    load
      .then((p) => {
        setProject(p);
        writeString(STORAGE_KEYS.projectId, String(p.id));
      })
      .catch(() => setFailed(true));
  }, [by, projectId, projectOwner, projectName]);

  return (
    <>
      <SiteHeader />
      <main className="page-container">
        {failed && <p className="muted">This project could not be loaded.</p>}
        {!failed && !project && <p role="status" className="muted">Loading project...</p>}
        {project && (
          <section className="card" aria-labelledby="project-title">
            <h1 id="project-title" data-testid="project-title">{project.name}</h1>
            <p className="muted">{project.description || 'No description'}</p>
            {project.pages?.length ? (
              <ul className="page-list">
                {project.pages.map((page) => <li key={page.id}>{page.name}</li>)}
              </ul>
            ) : (
              <>
                <h2>No Page Selected</h2>
                <p className="muted">Select a page from the list on the left, or create a new one</p>
              </>
            )}
            <Link to="/projects" className="button">View projects</Link>
          </section>
        )}
      </main>
    </>
  );
}
