-- The file role as a ranking prior (docs/rag.md): what each chunk's file is for a reader
-- (library, test, example, guide, build, tooling, generated; '' for page sections),
-- whether it is a documented public definition, and its doc comment for answers.
ALTER TABLE rag_chunks ADD COLUMN role text NOT NULL DEFAULT '';
ALTER TABLE rag_chunks ADD COLUMN api boolean NOT NULL DEFAULT false;
ALTER TABLE rag_chunks ADD COLUMN doc text NOT NULL DEFAULT '';
