// The spec's status tables (section 4) as data: badge, colour, sort order, progress
// percent and progress message per status. The UI and the table-driven tests both read
// this module, so there is exactly one copy of these rules.

export const STATUSES = [
  'IDLE', 'REQUEST_TO_CLONE', 'CLONING', 'CLONE_SUCCESS', 'CLONE_FAIL', 'PULL_FAIL',
  'DOC_PENDING', 'DOC_FILE_OVERVIEWS_GENERATING', 'DOC_FILE_OVERVIEWS_FAILED',
  'DOC_PROJECT_OVERVIEW_GENERATING', 'DOC_PROJECT_OVERVIEW_FAILED', 'DOC_TOPICS_GENERATING',
  'DOC_TOPICS_FAILED', 'DOC_TOPIC_PAGES_GENERATING', 'DOC_TOPIC_PAGES_FAILED',
  'DOC_SUBTOPICS_GENERATING', 'DOC_FILE_PAGES_GENERATING', 'DOC_FILE_PAGES_FAILED',
  'DOC_UPDATING', 'DOC_SUCCESS', 'DOC_FAILURE', 'READY',
] as const;
export type ProjectStatus = (typeof STATUSES)[number];

export type BadgeLabel = 'Up to date' | 'Updating' | 'In Progress' | 'Partially Generated' | 'Failed';
export type BadgeColour = 'green' | 'blue' | 'amber' | 'orange' | 'red';

interface BadgeRow {
  label: BadgeLabel;
  colour: BadgeColour;
  sortOrder: number;
  statuses: readonly ProjectStatus[];
}

export const BADGES: readonly BadgeRow[] = [
  { label: 'Up to date', colour: 'green', sortOrder: 1, statuses: ['DOC_SUCCESS', 'READY'] },
  { label: 'Updating', colour: 'blue', sortOrder: 2, statuses: ['DOC_UPDATING'] },
  {
    label: 'In Progress', colour: 'amber', sortOrder: 3,
    statuses: [
      'IDLE', 'REQUEST_TO_CLONE', 'CLONING', 'CLONE_SUCCESS', 'DOC_PENDING',
      'DOC_FILE_OVERVIEWS_GENERATING', 'DOC_FILE_OVERVIEWS_FAILED',
      'DOC_PROJECT_OVERVIEW_GENERATING', 'DOC_PROJECT_OVERVIEW_FAILED', 'DOC_TOPICS_GENERATING',
      'DOC_TOPIC_PAGES_GENERATING', 'DOC_SUBTOPICS_GENERATING', 'DOC_FILE_PAGES_GENERATING',
    ],
  },
  { label: 'Partially Generated', colour: 'orange', sortOrder: 4, statuses: ['DOC_FILE_PAGES_FAILED'] },
  {
    label: 'Failed', colour: 'red', sortOrder: 5,
    statuses: ['CLONE_FAIL', 'PULL_FAIL', 'DOC_TOPICS_FAILED', 'DOC_TOPIC_PAGES_FAILED', 'DOC_FAILURE'],
  },
];

export const UNKNOWN_STATUS_BADGE = { label: 'Unknown Status', colour: 'red' as BadgeColour };
/** Unknown statuses sort after every known one. */
export const UNKNOWN_SORT_ORDER = 6;

/** Settled statuses show no badge at all. */
export const BADGE_HIDDEN_STATUSES: readonly ProjectStatus[] = ['DOC_SUCCESS', 'CLONE_SUCCESS', 'IDLE', 'READY'];

export const PROGRESS_PERCENT: Readonly<Partial<Record<ProjectStatus, number>>> = {
  IDLE: 0,
  REQUEST_TO_CLONE: 5,
  CLONING: 5,
  CLONE_SUCCESS: 10,
  CLONE_FAIL: 10,
  DOC_PENDING: 15,
  DOC_FILE_OVERVIEWS_GENERATING: 15,
  DOC_FILE_OVERVIEWS_FAILED: 15,
  DOC_PROJECT_OVERVIEW_GENERATING: 35,
  DOC_PROJECT_OVERVIEW_FAILED: 35,
  DOC_TOPICS_GENERATING: 44,
  DOC_TOPICS_FAILED: 44,
  DOC_TOPIC_PAGES_GENERATING: 55,
  DOC_TOPIC_PAGES_FAILED: 55,
  DOC_SUBTOPICS_GENERATING: 55,
  DOC_FILE_PAGES_GENERATING: 65,
  DOC_FILE_PAGES_FAILED: 65,
  DOC_SUCCESS: 100,
  DOC_FAILURE: 100,
  READY: 100,
};

export type ProgressKind = 'inProgress' | 'done' | 'failed';

export const PROGRESS_MESSAGES: Readonly<Record<ProgressKind, { title: string; text: string }>> = {
  inProgress: { title: 'Getting things ready', text: 'This will take some time, feel free to get a cup of coffee' },
  done: { title: 'All Done!', text: 'Your documentation is ready to view.' },
  failed: { title: 'Documentation Failed', text: "Sorry, we couldn't generate your documentation..." },
};

export const CLOSE_PAGE_NOTE = 'You can close this page without causing any issues.';

export function isKnownStatus(status: unknown): status is ProjectStatus {
  return typeof status === 'string' && (STATUSES as readonly string[]).includes(status);
}

function badgeRowOf(status: unknown): BadgeRow | undefined {
  return BADGES.find((row) => (row.statuses as readonly unknown[]).includes(status));
}

/** The badge for a status: null when hidden, 'Unknown Status' when not in the table. */
export function badgeFor(status: unknown): { label: string; colour: BadgeColour } | null {
  if (isKnownStatus(status) && BADGE_HIDDEN_STATUSES.includes(status)) return null;
  const row = badgeRowOf(status);
  return row ? { label: row.label, colour: row.colour } : UNKNOWN_STATUS_BADGE;
}

export function sortOrderOf(status: unknown): number {
  return badgeRowOf(status)?.sortOrder ?? UNKNOWN_SORT_ORDER;
}

export function percentFor(status: unknown): number {
  return isKnownStatus(status) ? (PROGRESS_PERCENT[status] ?? 0) : 0;
}

export function progressKindOf(status: unknown): ProgressKind {
  if (status === 'DOC_SUCCESS' || status === 'READY') return 'done';
  if (status === 'DOC_TOPICS_FAILED') return 'inProgress';
  const label = badgeRowOf(status)?.label;
  if (label === 'In Progress' || label === 'Updating') return 'inProgress';
  if (label === 'Failed' || label === 'Partially Generated') return 'failed';
  return 'inProgress';
}

/** Polling of the progress screen ends on success, DOC_FAILURE, or a Failed / Partially Generated badge. */
export function stopsProgressPolling(status: unknown): boolean {
  if (status === 'DOC_SUCCESS' || status === 'DOC_FAILURE') return true;
  const label = badgeRowOf(status)?.label;
  return label === 'Failed' || label === 'Partially Generated';
}

/**
 * Statuses at which the server's run has stopped at a failure (it stays there until a
 * retry or a push), whatever badge the spec gives them: DOC_FILE_OVERVIEWS_FAILED and
 * DOC_PROJECT_OVERVIEW_FAILED show "In Progress", yet nothing runs.
 */
export function isStoppedAtFailure(status: unknown): boolean {
  return typeof status === 'string' && (status === 'DOC_FAILURE' || /_FAIL(ED)?$/.test(status));
}

export function compareProjects(a: { status?: unknown; name: string }, b: { status?: unknown; name: string }): number {
  return sortOrderOf(a.status) - sortOrderOf(b.status) || a.name.localeCompare(b.name);
}
