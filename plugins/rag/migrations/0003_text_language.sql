-- The text-search configuration each chunk's vector was built with: a project's pages in
-- its language (russian, german), code and the repository's guides in english. Queries
-- stem the question once per configuration in use (docs/rag.md).
ALTER TABLE rag_chunks ADD COLUMN lang text NOT NULL DEFAULT 'english'
  CHECK (lang IN ('english', 'russian', 'german'));
