-- Each grant an admin made, for the cap per inviter and day (rbac.invitations_per_day).
-- Rows older than a day are pruned as new ones come.
CREATE TABLE rbac_invitations (
  id          bigserial PRIMARY KEY,
  inviter_id  bigint NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rbac_invitations_inviter ON rbac_invitations (inviter_id, created_at);
