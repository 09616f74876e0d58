-- Whether the project's search index is complete (set by the rag plugin).
ALTER TABLE projects ADD COLUMN rag_status text NOT NULL DEFAULT 'idle' CHECK (rag_status IN ('active', 'idle'));
