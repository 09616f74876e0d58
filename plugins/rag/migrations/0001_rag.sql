-- The search index: code chunks (symbol-aligned) and page sections, ranked by full-text
-- search over identifier-aware text and by trigram similarity of symbol names.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE rag_chunks (
  id bigserial PRIMARY KEY,
  project_id bigint NOT NULL,
  kind text NOT NULL CHECK (kind IN ('code', 'docs')),
  path text NOT NULL DEFAULT '',
  start_line integer NOT NULL DEFAULT 0,
  end_line integer NOT NULL DEFAULT 0,
  symbol text NOT NULL DEFAULT '',
  symbol_kind text NOT NULL DEFAULT '',
  language text NOT NULL DEFAULT '',
  page_id bigint,
  title text NOT NULL DEFAULT '',
  content text NOT NULL,
  names text NOT NULL DEFAULT '',
  search tsvector NOT NULL
);
CREATE INDEX rag_chunks_search ON rag_chunks USING gin (search);
CREATE INDEX rag_chunks_names ON rag_chunks USING gin (names gin_trgm_ops);
CREATE INDEX rag_chunks_file ON rag_chunks (project_id, kind, path);
CREATE INDEX rag_chunks_page ON rag_chunks (page_id) WHERE kind = 'docs';

-- What each chunk set was built from, so a rebuild touches only what changed.
CREATE TABLE rag_files (
  project_id bigint NOT NULL,
  path text NOT NULL,
  digest text NOT NULL,
  PRIMARY KEY (project_id, path)
);
CREATE TABLE rag_pages (
  page_id bigint PRIMARY KEY,
  project_id bigint NOT NULL,
  digest text NOT NULL
);
CREATE INDEX rag_pages_project ON rag_pages (project_id);

-- Model tokens spent per caller per UTC day (the daily budget).
CREATE TABLE rag_token_usage (
  caller text NOT NULL,
  day date NOT NULL,
  tokens bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (caller, day)
);
