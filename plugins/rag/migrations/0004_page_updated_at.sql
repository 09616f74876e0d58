-- The page's updated_at (as the Pages service gives it) when its index was last checked:
-- the catch-up at start queues a page job only for pages whose updated_at differs.
ALTER TABLE rag_pages ADD COLUMN checked_updated_at text NOT NULL DEFAULT '';
