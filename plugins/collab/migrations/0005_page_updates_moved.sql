-- The update log is the pages plugin's page_log now. Its migration moves page_updates'
-- rows and drops the table; when collab is enabled after pages already made page_log,
-- collab's 0001-0004 have just made an empty page_updates, dropped here. While page_log
-- does not exist yet (an upgrade: pages migrates after collab), the rows stay for it.
DO $$
BEGIN
  IF to_regclass('page_log') IS NOT NULL AND to_regclass('page_updates') IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM page_updates) THEN
    DROP TABLE page_updates;
  END IF;
END
$$;
