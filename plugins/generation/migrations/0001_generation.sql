-- Generation runs, the pages each run wrote (so a resumed stage reuses them), and the
-- history of statuses a project went through.
CREATE TABLE generation_runs (
  project_id   bigint PRIMARY KEY,
  stage        text NOT NULL,
  message      text NOT NULL DEFAULT '',
  started_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  finished_at  timestamptz
);

CREATE TABLE generation_pages (
  project_id  bigint NOT NULL,
  key         text NOT NULL,
  page_id     bigint NOT NULL,
  PRIMARY KEY (project_id, key)
);

CREATE TABLE generation_status_log (
  id          bigserial PRIMARY KEY,
  project_id  bigint NOT NULL,
  status      text NOT NULL,
  message     text NOT NULL DEFAULT '',
  at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX generation_status_log_project ON generation_status_log (project_id, id);
