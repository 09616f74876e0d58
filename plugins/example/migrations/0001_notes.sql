CREATE TABLE example_notes (
  id bigserial PRIMARY KEY,
  text text NOT NULL,
  processed boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE example_counters (
  name text PRIMARY KEY,
  value bigint NOT NULL DEFAULT 0
);
