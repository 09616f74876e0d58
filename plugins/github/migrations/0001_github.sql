-- Webhook deliveries already handled (GitHub redelivers; each id is acted on once).
CREATE TABLE github_deliveries (
  delivery_id text PRIMARY KEY,
  event text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX github_deliveries_received ON github_deliveries (received_at);
