-- Comment threads on a passage of a page, and their comments. page_id and project_id
-- name rows of the pages and projects plugins (no foreign key across plugins): the
-- comments plugin deletes a page's threads on page.deleted and project.deleted.
CREATE TABLE comment_threads (
  id           bigserial PRIMARY KEY,
  project_id   bigint NOT NULL,
  page_id      bigint NOT NULL,
  author_id    bigint NOT NULL,
  author_name  text NOT NULL,
  quote        text NOT NULL DEFAULT '',   -- the passage as it was when the thread began
  resolved_at  timestamptz,
  resolved_by  bigint,
  resolved_by_name text,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX comment_threads_page ON comment_threads (page_id, id);
CREATE INDEX comment_threads_project ON comment_threads (project_id);

CREATE TABLE comments (
  id           bigserial PRIMARY KEY,
  thread_id    bigint NOT NULL REFERENCES comment_threads (id) ON DELETE CASCADE,
  author_id    bigint NOT NULL,
  author_name  text NOT NULL,
  body         text NOT NULL,              -- the limited Markdown source, as written
  created_at   timestamptz NOT NULL DEFAULT now(),
  edited_at    timestamptz
);
CREATE INDEX comments_thread ON comments (thread_id, id);

-- The last mention mail per thread and person: at most one per 10 minutes.
CREATE TABLE comment_mention_mails (
  thread_id    bigint NOT NULL REFERENCES comment_threads (id) ON DELETE CASCADE,
  email        text NOT NULL,
  sent_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (thread_id, email)
);
