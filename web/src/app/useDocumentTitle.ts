// Each screen names itself in the browser tab (and for screen readers on navigation).
import { useEffect } from 'react';

export const SITE_NAME = 'docs';

export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    document.title = title ? `${title} · ${SITE_NAME}` : `${SITE_NAME}: automate your documentation`;
  }, [title]);
}
