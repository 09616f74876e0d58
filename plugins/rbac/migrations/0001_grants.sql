-- Who has which role in which project. A grant names an email; user_id is filled once
-- the person has an account (at invite time, on first sign-in, or on first use).
CREATE TABLE rbac_grants (
  id bigserial PRIMARY KEY,
  project_id bigint NOT NULL,
  user_id bigint,
  user_email text NOT NULL CHECK (user_email = lower(user_email)),
  role text NOT NULL CHECK (role IN ('read', 'write', 'admin')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (project_id, user_email)
);
CREATE INDEX rbac_grants_user ON rbac_grants (user_id, project_id);
CREATE INDEX rbac_grants_pending_email ON rbac_grants (user_email) WHERE user_id IS NULL;
