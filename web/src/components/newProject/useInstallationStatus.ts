// Installation status of the GitHub App for a repository: checked 500 ms after the URL
// settles, then polled every 4 s while the installation window is open and access is
// still missing.
import { useCallback, useEffect, useRef, useState } from 'react';
import { installationStatus } from '../../api/projectsApi';
import type { InstallationStatus } from '../../api/types';
import { INSTALL_POLL_MS, URL_CHECK_DEBOUNCE_MS } from '../../spec/constants';
import { MSG } from '../../spec/messages';
import type { ParsedRepoUrl } from '../../spec/validation';
import { showToast } from '../../toast/toastStore';

export function useInstallationStatus(repo: ParsedRepoUrl | null) {
  const [status, setStatus] = useState<InstallationStatus | null>(null);
  const [checking, setChecking] = useState(false);
  const poll = useRef<ReturnType<typeof setInterval> | null>(null);
  const key = repo ? `${repo.owner}/${repo.repo}` : null;

  const stopPolling = useCallback(() => {
    if (poll.current) clearInterval(poll.current);
    poll.current = null;
  }, []);

  useEffect(() => {
    setStatus(null);
    stopPolling();
    if (!repo) return;
    let cancelled = false;
    setChecking(true);
    const timer = setTimeout(() => {
      installationStatus(repo.owner, repo.repo)
        .then((answer) => !cancelled && setStatus(answer))
        .catch(() => !cancelled && showToast({ title: MSG.errorCheckingInstallation, type: 'error' }))
        .finally(() => !cancelled && setChecking(false));
    }, URL_CHECK_DEBOUNCE_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  useEffect(() => stopPolling, [stopPolling]);

  /** Polls until access exists; stops too once the installation window is closed. */
  const pollWhileInstalling = useCallback(
    (installWindow: Window | null) => {
      if (!repo) return;
      stopPolling();
      poll.current = setInterval(() => {
        const windowClosed = installWindow !== null && installWindow.closed;
        installationStatus(repo.owner, repo.repo)
          .then((answer) => {
            setStatus(answer);
            if (answer.has_installation_access || windowClosed) stopPolling();
          })
          .catch(() => stopPolling());
      }, INSTALL_POLL_MS);
    },
    [repo, stopPolling],
  );

  return { status, checking, pollWhileInstalling };
}
