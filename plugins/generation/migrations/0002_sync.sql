-- What each generated page held when generation wrote it (a digest of its Markdown), so
-- a sync can tell a page a person edited; and pushes waiting for a sync.
ALTER TABLE generation_pages ADD COLUMN written_digest text NOT NULL DEFAULT '';
ALTER TABLE generation_runs ADD COLUMN sync_wanted integer NOT NULL DEFAULT 0;
