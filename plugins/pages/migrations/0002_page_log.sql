-- The log of accepted Yjs updates per page, folded into pages.content_bytea: a page's
-- document is this plugin's (content plus log). Until this release the collab plugin
-- kept the log as page_updates; its rows move here, ids kept (collab's migrations run
-- first, in name order, and leave the table in place while it may hold rows).
CREATE TABLE page_log (
  id            bigserial PRIMARY KEY,
  page_id       bigint NOT NULL,
  update        bytea NOT NULL,
  user_id       bigint,
  created_at    timestamptz NOT NULL DEFAULT now(),
  -- Which docsd process (collab's node name) logged the row; '' for a server-side edit.
  node          text NOT NULL DEFAULT '',
  -- Several updates of one writer and group commit, each as a lib0 byte array.
  update_count  integer NOT NULL DEFAULT 1 CHECK (update_count >= 1)
);
CREATE INDEX page_log_page ON page_log (page_id, id);

DO $$
BEGIN
  IF to_regclass('page_updates') IS NOT NULL THEN
    INSERT INTO page_log (id, page_id, update, user_id, created_at, node, update_count)
      SELECT id, page_id, update, user_id, created_at, node, update_count FROM page_updates ORDER BY id;
    PERFORM setval(pg_get_serial_sequence('page_log', 'id'), greatest((SELECT max(id) FROM page_log), 1),
                   (SELECT max(id) FROM page_log) IS NOT NULL);
    DROP TABLE page_updates;
  END IF;
END
$$;
