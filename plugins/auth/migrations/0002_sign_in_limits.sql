-- A code's purpose: signing in, or confirming that an account is to be deleted. A code of
-- one purpose never works for the other.
ALTER TABLE auth_otps ADD COLUMN purpose text NOT NULL DEFAULT 'sign-in';
DROP INDEX auth_otps_email;
CREATE INDEX auth_otps_email ON auth_otps (email, purpose, created_at DESC);

-- Sign-in links mailed with each code: single use, short-lived; only the SHA-256 of the
-- link's token is stored.
CREATE TABLE auth_magic_links (
  token_hash  text PRIMARY KEY,
  email       text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX auth_magic_links_expiry ON auth_magic_links (expires_at);

-- Failed sign-in tries (wrong codes, unknown links) for the daily caps and the back-off:
-- "address:<IPv4 or IPv6 /64>" and "account:<email>".
CREATE TABLE auth_failures (
  bucket      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_failures_bucket ON auth_failures (bucket, created_at);
