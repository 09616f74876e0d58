-- Personal access tokens: long-lived bearer credentials for scripts and agents. The
-- token is shown once at creation; only its SHA-256 is stored. Revoking deletes the row,
-- so every node refuses it on its next request (each request reads this table).
CREATE TABLE auth_access_tokens (
  id            bigserial PRIMARY KEY,
  user_id       bigint NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
  name          text NOT NULL,
  token_hash    text NOT NULL UNIQUE,
  scope         text NOT NULL CHECK (scope IN ('read', 'write')),
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz,                  -- NULL: never
  last_used_at  timestamptz                   -- kept to the minute
);
CREATE INDEX auth_access_tokens_user ON auth_access_tokens (user_id, created_at);
