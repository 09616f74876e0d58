// The project the page view's 'Ask AI (Beta)' put in the navigation state, if any.
export function openedFromProject(state: unknown): number | null {
  const id = (state as { projectId?: unknown } | null)?.projectId;
  const n = typeof id === 'string' ? Number(id) : id;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : null;
}
