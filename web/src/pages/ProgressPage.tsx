// /generate/github and /generate/zip/{id}: ring, title, text; DOC_SUCCESS redirects to
// the project's default page. A run stopped at a failure says why and offers its writers
// a retry (it does not poll forever).
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ProgressRing } from '../components/ProgressRing';
import { SiteHeader } from '../components/SiteHeader';
import { CLOSE_PAGE_NOTE, PROGRESS_MESSAGES, isStoppedAtFailure, percentFor, progressKindOf } from '../spec/status';
import { getGenerationRun, retryGeneration } from '../api/projectsApi';
import { useProjectProgress } from './progress/useProjectProgress';
import { useDocumentTitle } from '../app/useDocumentTitle';

export default function ProgressPage({ kind }: { kind: 'github' | 'zip' }) {
  const { id } = useParams();
  const navigate = useNavigate();
  const { project, pollAgain } = useProjectProgress(kind, kind === 'zip' ? Number(id) : null);
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
          {isStoppedAtFailure(project.status) && project.id !== undefined && (
            <StoppedRun projectId={project.id} status={project.status ?? ""} canRetry={project.role === 'write' || project.role === 'admin'} onRetried={pollAgain} />
          )}
          <Link to="/projects" className="button button--ghost">View projects</Link>
        </section>
      </main>
    </>
  );
}

/** Why the run stopped, and a retry for the project's writers. */
function StoppedRun({ projectId, status, canRetry, onRetried }: { projectId: number; status: string; canRetry: boolean; onRetried: () => void }) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let cancelled = false;
    getGenerationRun(projectId)
      .then((run) => !cancelled && setReason(run.message ?? ''))
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [projectId, status]);
  const retry = () => {
    setBusy(true);
    retryGeneration(projectId)
      .catch(() => {})  // 409: it runs again already; the next poll shows it
      .finally(() => {
        setBusy(false);
        onRetried();
      });
  };
  return (
    <div className="progress-stopped" role="status" data-testid="progress-stopped">
      <p>
        <strong>This run stopped.</strong> {reason}
      </p>
      {canRetry ? (
        <button type="button" className="button" onClick={retry} disabled={busy}>
          Retry
        </button>
      ) : (
        <p className="muted">An editor of this project can run it again.</p>
      )}
    </div>
  );
}
