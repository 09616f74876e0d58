import { badgeFor } from '../spec/status';

export function StatusBadge({ status }: { status: unknown }) {
  const badge = badgeFor(status);
  if (!badge) return null;
  return <span className={`badge badge--${badge.colour}`} data-testid="status-badge">{badge.label}</span>;
}
