// Creates a repository project from the stored basis when asked, then polls the project
// every 8 s until a status ends polling; an invalid basis or a failed creation is
// CLONE_FAIL.
import { useEffect, useRef, useState } from 'react';
import { createGithubProject, getProject } from '../../api/projectsApi';
import type { Project } from '../../api/types';
import { track } from '../../analytics/analytics';
import { loadCreationBasis, saveCreationBasis } from '../../components/newProject/creationBasis';
import { PROJECT_POLL_MS } from '../../spec/constants';
import { MSG } from '../../spec/messages';
import { isStoppedAtFailure, stopsProgressPolling } from '../../spec/status';
import { creationBasisError, type CreationBasis } from '../../spec/validation';
import { showToast } from '../../toast/toastStore';

export function useProjectProgress(kind: 'github' | 'zip', zipProjectId: number | null) {
  const [project, setProject] = useState<Pick<Project, 'status'> & Partial<Project>>({ status: 'REQUEST_TO_CLONE' });
  // Bumped by a retry: polling starts again.
  const [round, setRound] = useState(0);
  // Kept across StrictMode's effect re-run, so the project is created once.
  const creation = useRef<Promise<Project> | null>(null);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let cancelled = false;

    const poll = (id: number) => {
      getProject(id)
        .then((p) => {
          if (cancelled) return;
          setProject(p);
          // A run stopped at a failure stays there until a retry: no use asking again.
          if (!stopsProgressPolling(p.status) && !isStoppedAtFailure(p.status)) timer = setTimeout(() => poll(id), PROJECT_POLL_MS);
        })
        .catch(() => {
          if (!cancelled) timer = setTimeout(() => poll(id), PROJECT_POLL_MS);
        });
    };

    const fail = (text: string, title = MSG.couldNotCreateProject) => {
      showToast({ title, text, type: 'error' });
      setProject({ status: 'CLONE_FAIL' });
    };

    if (kind === 'zip') {
      if (zipProjectId === null || Number.isNaN(zipProjectId)) fail(MSG.creationInfoInvalid);
      else poll(zipProjectId);
    } else {
      const basis = loadCreationBasis();
      const invalid = creationBasisError(basis);
      const createdId = (basis as { project_id?: unknown } | null)?.project_id;
      if (invalid) {
        fail(invalid);
      } else if (typeof createdId === 'number') {
        // Created already (the page was reloaded): follow that project.
        poll(createdId);
      } else {
        const b = basis as CreationBasis;
        creation.current ??= createGithubProject({
          repo_owner: b.owner_name, repo_name: b.repo_name, name: b.project_name, language: b.language, is_private: b.is_private,
        }).then((created) => {
          track('Project Created', { type: 'github' });
          saveCreationBasis({ ...b, project_id: created.id });
          return created;
        });
        creation.current
          .then((created) => {
            if (cancelled) return;
            setProject(created);
            poll(created.id);
          })
          .catch(() => !cancelled && fail(MSG.errorWhileCreating));
      }
    }
    return () => {
      cancelled = true;
      if (timer) clearTimeout(timer);
    };
  }, [kind, zipProjectId, round]);

  return { project, pollAgain: () => setRound((r) => r + 1) };
}
