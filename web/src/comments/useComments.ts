// The page's threads: loaded once, again whenever the collaboration socket says they
// changed (another person, another node) and after this user's own changes.
import { useCallback, useEffect, useState } from 'react';
import { listComments, type CommentThread } from './commentsApi';
import { changedChannel } from './commentSignals';

export function useComments(pageId: number, enabled: boolean) {
  const [threads, setThreads] = useState<CommentThread[]>([]);
  const [canComment, setCanComment] = useState(false);
  const [generation, setGeneration] = useState(0);
  const refresh = useCallback(() => setGeneration((g) => g + 1), []);

  useEffect(() => {
    if (!enabled) return;
    let live = true;
    listComments(pageId)
      .then((answer) => {
        if (!live) return;
        setThreads(answer.threads);
        setCanComment(answer.can_comment);
      })
      .catch(() => {
        // a page the caller cannot read, or the plugin gone: nothing to show
        if (live) setThreads([]);
      });
    return () => {
      live = false;
    };
  }, [pageId, enabled, generation]);

  useEffect(() => changedChannel.on((changed) => changed === pageId && refresh()), [pageId, refresh]);

  return { threads, canComment, refresh };
}
