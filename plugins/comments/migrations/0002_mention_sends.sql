-- Each mention mail an author caused, for the cap per author and day
-- (comments.mention_mails_per_day). Rows older than a day are pruned as new ones come.
CREATE TABLE comment_mention_sends (
  id         bigserial PRIMARY KEY,
  author_id  bigint NOT NULL,
  sent_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX comment_mention_sends_author ON comment_mention_sends (author_id, sent_at);
