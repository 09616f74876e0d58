-- The write-ahead log of accepted Yjs updates per page. An update is committed here
-- before it is acknowledged or broadcast; the compactor folds rows into the page's
-- stored content (through the Pages service) and deletes them.
CREATE TABLE page_updates (
  id          bigserial PRIMARY KEY,
  page_id     bigint NOT NULL,
  update      bytea NOT NULL,
  user_id     bigint,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX page_updates_page ON page_updates (page_id, id);
