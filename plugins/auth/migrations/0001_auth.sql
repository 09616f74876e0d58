-- Accounts, sessions, signing keys, one-time codes, OAuth states and rate-limit events.
CREATE TABLE auth_users (
  id          bigserial PRIMARY KEY,
  email       text NOT NULL UNIQUE,          -- lower-case
  name        text NOT NULL DEFAULT '',
  image       text NOT NULL DEFAULT '',
  login       text,                          -- GitHub login, for GitHub users
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- A sign-in provider's account linked to a user, keyed on the provider's own user id.
CREATE TABLE auth_accounts (
  provider     text NOT NULL,
  account_id   text NOT NULL,
  user_id      bigint NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, account_id)
);
CREATE INDEX auth_accounts_user ON auth_accounts (user_id);

-- Server-side sessions. The cookie holds a random token; only its SHA-256 is stored.
CREATE TABLE auth_sessions (
  id          text PRIMARY KEY,              -- public id (the JWT's sid)
  token_hash  text NOT NULL UNIQUE,
  user_id     bigint NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz,
  ip          text NOT NULL DEFAULT '',
  user_agent  text NOT NULL DEFAULT ''
);
CREATE INDEX auth_sessions_user ON auth_sessions (user_id);

-- Ed25519 keys that sign JWTs. The newest unretired key signs; retired keys still verify
-- until every token they signed has expired.
CREATE TABLE auth_signing_keys (
  kid          text PRIMARY KEY,
  private_key  text NOT NULL,                -- base64 raw Ed25519 seed
  public_key   text NOT NULL,                -- base64url raw public key (JWK x)
  created_at   timestamptz NOT NULL DEFAULT now(),
  retired_at   timestamptz
);

-- Server secrets generated on first start (HMAC keys for codes and OAuth state).
CREATE TABLE auth_secrets (
  name        text PRIMARY KEY,
  value       text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- One-time sign-in codes, stored as HMAC-SHA256(secret, email:code).
CREATE TABLE auth_otps (
  id           bigserial PRIMARY KEY,
  email        text NOT NULL,
  code_hash    text NOT NULL,
  attempts     integer NOT NULL DEFAULT 0,
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  consumed_at  timestamptz
);
CREATE INDEX auth_otps_email ON auth_otps (email, created_at DESC);

-- OAuth `state` nonces: single use, short-lived, with where to go afterwards.
CREATE TABLE auth_oauth_states (
  nonce         text PRIMARY KEY,
  provider      text NOT NULL,
  callback_url  text NOT NULL,
  redirect_uri  text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  used_at       timestamptz
);

-- Sliding-window rate limits ("otp-email:<email>", "otp-ip:<address>").
CREATE TABLE auth_rate_events (
  bucket      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_rate_events_bucket ON auth_rate_events (bucket, created_at);
