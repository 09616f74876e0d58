-- A group commit writes one row per page and writer holding all its updates of that
-- commit, each as a lib0 byte array (update_count > 1); a single update is stored as is.
ALTER TABLE page_updates ADD COLUMN update_count integer NOT NULL DEFAULT 1 CHECK (update_count >= 1);
