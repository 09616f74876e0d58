-- Page history: versions of a page's document, each the whole Yjs state as one update,
-- so any version is rebuilt by decoding one row (never by replaying the log).
-- authors: the users whose updates came in since the version before (merged into the
-- next kept version when thinning drops one). label: '' or why it was taken (a
-- generation run, a restore); labelled versions are never thinned.
CREATE TABLE page_versions (
  id          bigserial PRIMARY KEY,
  page_id     bigint NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  state       bytea NOT NULL,
  authors     bigint[] NOT NULL DEFAULT '{}',
  label       text NOT NULL DEFAULT '',
  kind        text NOT NULL DEFAULT 'edit' CHECK (kind IN ('edit', 'baseline', 'labelled', 'restore'))
);
CREATE INDEX page_versions_page ON page_versions (page_id, id DESC);

-- Changes folded into a page's content since its newest version: written by the
-- compaction (never by the acknowledge path), read and cleared by the snapshot task.
CREATE TABLE page_history_pending (
  page_id       bigint PRIMARY KEY,
  authors       bigint[] NOT NULL DEFAULT '{}',
  first_change  timestamptz NOT NULL,
  last_change   timestamptz NOT NULL
);
CREATE INDEX page_history_pending_due ON page_history_pending (last_change);
