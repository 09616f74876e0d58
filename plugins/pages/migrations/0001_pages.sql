-- The page tree of every project and each page's stored collaborative document.
CREATE TABLE pages (
  id bigserial PRIMARY KEY,
  project_id bigint NOT NULL,
  parent_id bigint REFERENCES pages (id) ON DELETE CASCADE,
  name text NOT NULL DEFAULT 'Untitled',
  type text NOT NULL DEFAULT 'generated' CHECK (type IN ('file', 'generated')),
  position bigint NOT NULL DEFAULT 0,
  content_bytea bytea,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pages_project_order ON pages (project_id, parent_id, position, id);
CREATE INDEX pages_parent ON pages (parent_id);
