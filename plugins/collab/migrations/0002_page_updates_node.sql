-- Which docsd process wrote each log row. Several nodes may hold the same page open, each
-- with only its own clients' updates in memory: a compactor folds the other nodes' rows
-- (and whatever they already stored) into the content instead of overwriting them.
ALTER TABLE page_updates ADD COLUMN node text NOT NULL DEFAULT '';
