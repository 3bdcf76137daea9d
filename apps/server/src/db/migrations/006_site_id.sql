-- The spec's sign-in carries site_id (0 when unset): kept with every sign-in attempt and with the
-- token a successful one issues (a stored-token sign-in keeps its token's site).
ALTER TABLE auth_log ADD COLUMN site_id integer;
ALTER TABLE auth_tokens ADD COLUMN site_id integer NOT NULL DEFAULT 0;
