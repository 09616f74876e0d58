-- A signed body is acted on once whatever delivery id comes with it (the id is outside
-- the signature: a captured delivery replayed under a new id is a duplicate).
ALTER TABLE github_deliveries ADD COLUMN body_sha256 text;
CREATE UNIQUE INDEX github_deliveries_body ON github_deliveries (body_sha256);
