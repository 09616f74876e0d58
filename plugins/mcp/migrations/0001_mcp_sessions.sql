-- MCP sessions (Streamable HTTP's Mcp-Session-Id): in the database so that any node
-- serves a session another node began. A session belongs to the caller that opened it
-- ('' for anonymous) and ends by DELETE /mcp or after mcp.session_idle_minutes.
CREATE TABLE mcp_sessions (
  id                text PRIMARY KEY,
  user_id           text NOT NULL DEFAULT '',
  protocol_version  text NOT NULL,
  client_name       text NOT NULL DEFAULT '',
  created_at        timestamptz NOT NULL DEFAULT now(),
  last_seen_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mcp_sessions_seen ON mcp_sessions (last_seen_at);
