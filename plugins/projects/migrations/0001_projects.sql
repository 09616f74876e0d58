-- Projects: a repository, a ZIP upload or an empty project, with its pipeline status.
CREATE TABLE projects (
  id bigserial PRIMARY KEY,
  type text NOT NULL CHECK (type IN ('github', 'user')),
  name text NOT NULL,
  description text NOT NULL DEFAULT 'No description',
  language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'ru', 'de')),
  git_url text,
  git_repository_id bigint,
  github_node_id text,
  installation_id bigint,
  status text NOT NULL DEFAULT 'IDLE',
  visibility text NOT NULL DEFAULT 'private' CHECK (visibility IN ('private', 'public')),
  commit_hash text,
  default_page_id bigint,
  created_by bigint,
  upload_path text,
  upload_name text,
  upload_size bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- One project per repository, whatever the URL's letter case.
CREATE UNIQUE INDEX projects_git_url ON projects (lower(git_url)) WHERE git_url IS NOT NULL;
