// /generate/github and /generate/zip/{id}: ring, title, text; DOC_SUCCESS redirects to
// the project's default page.
import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ProgressRing } from '../components/ProgressRing';
import { SiteHeader } from '../components/SiteHeader';
import { CLOSE_PAGE_NOTE, PROGRESS_MESSAGES, percentFor, progressKindOf } from '../spec/status';
import { useProjectProgress } from './progress/useProjectProgress';
import { useDocumentTitle } from '../app/useDocumentTitle';

export default function ProgressPage({ kind }: { kind: 'github' | 'zip' }) {
  const { id } = useParams();
  const navigate = useNavigate();
  const project = useProjectProgress(kind, kind === 'zip' ? Number(id) : null);
  const message = PROGRESS_MESSAGES[progressKindOf(project.status)];
  useDocumentTitle(`${percentFor(project.status)}% · ${message.title}`);

  useEffect(() => {
    if (project.status === 'DOC_SUCCESS' && project.id !== undefined) {
      navigate(project.default_page_id ? `/projects/${project.id}/${project.default_page_id}` : `/projects/${project.id}`, { replace: true });
    }
  }, [project, navigate]);

  return (
    <>
      <SiteHeader />
      <main className="center-page">
        <section className="card card--narrow text-center progress-card" aria-live="polite">
          <ProgressRing percent={percentFor(project.status)} />
          <h1 data-testid="progress-title">{message.title}</h1>
          <p>{message.text}</p>
          <p className="muted">{CLOSE_PAGE_NOTE}</p>
          {project.name && <p className="muted">Project: <strong>{project.name}</strong></p>}
          <Link to="/projects" className="button button--ghost">View projects</Link>
        </section>
      </main>
    </>
  );
}
