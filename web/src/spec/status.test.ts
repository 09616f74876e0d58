// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  BADGES, BADGE_HIDDEN_STATUSES, PROGRESS_MESSAGES, STATUSES, badgeFor, compareProjects, percentFor,
  progressKindOf, sortOrderOf, stopsProgressPolling,
} from './status';

// Spec section 4, "Project and documentation status", row by row.
const BADGE_TABLE: [string, string, string, number][] = [
  ['DOC_SUCCESS', 'Up to date', 'green', 1],
  ['READY', 'Up to date', 'green', 1],
  ['DOC_UPDATING', 'Updating', 'blue', 2],
  ['IDLE', 'In Progress', 'amber', 3],
  ['REQUEST_TO_CLONE', 'In Progress', 'amber', 3],
  ['CLONING', 'In Progress', 'amber', 3],
  ['CLONE_SUCCESS', 'In Progress', 'amber', 3],
  ['DOC_PENDING', 'In Progress', 'amber', 3],
  ['DOC_FILE_OVERVIEWS_GENERATING', 'In Progress', 'amber', 3],
  ['DOC_FILE_OVERVIEWS_FAILED', 'In Progress', 'amber', 3],
  ['DOC_PROJECT_OVERVIEW_GENERATING', 'In Progress', 'amber', 3],
  ['DOC_PROJECT_OVERVIEW_FAILED', 'In Progress', 'amber', 3],
  ['DOC_TOPICS_GENERATING', 'In Progress', 'amber', 3],
  ['DOC_TOPIC_PAGES_GENERATING', 'In Progress', 'amber', 3],
  ['DOC_SUBTOPICS_GENERATING', 'In Progress', 'amber', 3],
  ['DOC_FILE_PAGES_GENERATING', 'In Progress', 'amber', 3],
  ['DOC_FILE_PAGES_FAILED', 'Partially Generated', 'orange', 4],
  ['CLONE_FAIL', 'Failed', 'red', 5],
  ['PULL_FAIL', 'Failed', 'red', 5],
  ['DOC_TOPICS_FAILED', 'Failed', 'red', 5],
  ['DOC_TOPIC_PAGES_FAILED', 'Failed', 'red', 5],
  ['DOC_FAILURE', 'Failed', 'red', 5],
];

describe('status badge, colour and sort order', () => {
  it('covers every status exactly once', () => {
    const listed = BADGES.flatMap((b) => b.statuses);
    expect([...listed].sort()).toEqual([...STATUSES].sort());
    expect(BADGE_TABLE.map((r) => r[0]).sort()).toEqual([...STATUSES].sort());
  });

  it.each(BADGE_TABLE)('%s -> %s (%s), order %i', (status, label, colour, order) => {
    expect(sortOrderOf(status)).toBe(order);
    const badge = badgeFor(status);
    if (BADGE_HIDDEN_STATUSES.includes(status as never)) {
      expect(badge).toBeNull();
    } else {
      expect(badge).toEqual({ label, colour });
    }
  });

  it.each(['DOC_SUCCESS', 'CLONE_SUCCESS', 'IDLE', 'READY'])('hides the badge for the settled status %s', (status) => {
    expect(badgeFor(status)).toBeNull();
  });

  it.each([undefined, null, '', 'SOMETHING_NEW', 42])('shows a red Unknown Status badge for %s', (status) => {
    expect(badgeFor(status)).toEqual({ label: 'Unknown Status', colour: 'red' });
  });

  it('sorts by status order, then by name', () => {
    const projects = [
      { name: 'b', status: 'CLONE_FAIL' },
      { name: 'z', status: 'DOC_SUCCESS' },
      { name: 'a', status: 'DOC_SUCCESS' },
      { name: 'c', status: 'DOC_UPDATING' },
      { name: 'd', status: 'CLONING' },
      { name: 'e', status: 'DOC_FILE_PAGES_FAILED' },
      { name: 'f', status: 'WHAT' },
    ];
    expect([...projects].sort(compareProjects).map((p) => p.name)).toEqual(['a', 'z', 'c', 'd', 'e', 'b', 'f']);
  });
});

// Spec section 4, "Progress percent by status".
const PERCENT_TABLE: [string, number][] = [
  ['IDLE', 0], ['REQUEST_TO_CLONE', 5], ['CLONING', 5], ['CLONE_SUCCESS', 10], ['CLONE_FAIL', 10],
  ['DOC_PENDING', 15], ['DOC_FILE_OVERVIEWS_GENERATING', 15], ['DOC_FILE_OVERVIEWS_FAILED', 15],
  ['DOC_PROJECT_OVERVIEW_GENERATING', 35], ['DOC_PROJECT_OVERVIEW_FAILED', 35],
  ['DOC_TOPICS_GENERATING', 44], ['DOC_TOPICS_FAILED', 44],
  ['DOC_TOPIC_PAGES_GENERATING', 55], ['DOC_TOPIC_PAGES_FAILED', 55], ['DOC_SUBTOPICS_GENERATING', 55],
  ['DOC_FILE_PAGES_GENERATING', 65], ['DOC_FILE_PAGES_FAILED', 65],
  ['DOC_SUCCESS', 100], ['DOC_FAILURE', 100], ['READY', 100],
  ['UNKNOWN', 0],
];

describe('progress percent', () => {
  it.each(PERCENT_TABLE)('%s -> %i%%', (status, percent) => {
    expect(percentFor(status)).toBe(percent);
  });
});

// Spec section 4, "Progress messages".
const MESSAGE_TABLE: [string, string, string][] = [
  ...['IDLE', 'REQUEST_TO_CLONE', 'CLONING', 'CLONE_SUCCESS', 'DOC_PENDING', 'DOC_FILE_OVERVIEWS_GENERATING',
    'DOC_PROJECT_OVERVIEW_GENERATING', 'DOC_TOPICS_GENERATING', 'DOC_TOPIC_PAGES_GENERATING', 'DOC_SUBTOPICS_GENERATING',
    'DOC_FILE_PAGES_GENERATING', 'DOC_UPDATING', 'DOC_TOPICS_FAILED'].map(
    (s) => [s, 'Getting things ready', 'This will take some time, feel free to get a cup of coffee'] as [string, string, string],
  ),
  ['DOC_SUCCESS', 'All Done!', 'Your documentation is ready to view.'],
  ['READY', 'All Done!', 'Your documentation is ready to view.'],
  ...['CLONE_FAIL', 'PULL_FAIL', 'DOC_TOPIC_PAGES_FAILED', 'DOC_FILE_PAGES_FAILED', 'DOC_FAILURE'].map(
    (s) => [s, 'Documentation Failed', "Sorry, we couldn't generate your documentation..."] as [string, string, string],
  ),
];

describe('progress messages', () => {
  it.each(MESSAGE_TABLE)('%s -> %s / %s', (status, title, text) => {
    expect(PROGRESS_MESSAGES[progressKindOf(status)]).toEqual({ title, text });
  });
});

describe('progress polling', () => {
  it.each([
    ['DOC_SUCCESS', true], ['DOC_FAILURE', true], ['CLONE_FAIL', true], ['PULL_FAIL', true],
    ['DOC_TOPICS_FAILED', true], ['DOC_TOPIC_PAGES_FAILED', true], ['DOC_FILE_PAGES_FAILED', true],
    ['READY', false], ['CLONING', false], ['DOC_UPDATING', false], ['DOC_FILE_OVERVIEWS_FAILED', false],
  ] as [string, boolean][])('%s stops polling: %s', (status, stops) => {
    expect(stopsProgressPolling(status)).toBe(stops);
  });
});
