// The projects the picker offers: a signed-in user's list, plus the project the chat was
// opened from (a public project of someone else is not in that list). A signed-out
// visitor has no list, only that project.
import { useEffect, useState } from 'react';
import { getProject, listProjects } from '../api/projectsApi';

export interface ChatProject {
  id: number;
  name: string;
}

// The page that opened the chat may be gone or private: then it is simply not offered.
const QUIET = [400, 401, 403, 404];

export function useChatProjects(openedFrom: number | null, signedIn: boolean): { projects: ChatProject[]; loading: boolean } {
  const [projects, setProjects] = useState<ChatProject[]>([]);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    let live = true;
    setLoading(true);
    const list = signedIn ? listProjects().catch(() => []) : Promise.resolve([]);
    void list.then(async (listed) => {
      const found: ChatProject[] = listed.map((p) => ({ id: p.id, name: p.name }));
      if (openedFrom !== null && !found.some((p) => p.id === openedFrom)) {
        const opened = await getProject(openedFrom, QUIET).catch(() => null);
        if (opened) found.unshift({ id: opened.id, name: opened.name });
      }
      if (live) {
        setProjects(found);
        setLoading(false);
      }
    });
    return () => {
      live = false;
    };
  }, [openedFrom, signedIn]);

  return { projects, loading };
}
