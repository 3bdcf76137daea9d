-- The operator console (issue 27): operator accounts apart from players, their tokens and sign-in
-- log, notes on players, and the append-only, hash-chained audit trail with its signed heads
-- (docs/operator.md).

CREATE TABLE operators (
  id            serial PRIMARY KEY,
  username      text NOT NULL,
  password_hash text NOT NULL,
  role          text NOT NULL CHECK (role IN ('admin', 'staff')),
  status        text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  failed_logins integer NOT NULL DEFAULT 0,
  blocked_until timestamptz,
  last_login_at timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX operators_username_key ON operators (lower(username));

-- Issued operator tokens; revoking one, or disabling the operator, stops it at once.
CREATE TABLE operator_tokens (
  jti         uuid PRIMARY KEY,
  operator_id integer NOT NULL REFERENCES operators(id),
  issued_at   timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz,
  ip          text
);
CREATE INDEX operator_tokens_operator ON operator_tokens (operator_id) WHERE revoked_at IS NULL;

-- Every operator sign-in attempt (the players' auth_log keeps players only).
CREATE TABLE operator_auth_log (
  id          bigserial PRIMARY KEY,
  operator_id integer REFERENCES operators(id),
  username    text,
  type        text NOT NULL,
  ip          text,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- Staff notes on a player (the console's player page).
CREATE TABLE player_notes (
  id          bigserial PRIMARY KEY,
  player_id   integer NOT NULL REFERENCES players(id),
  operator_id integer REFERENCES operators(id),
  author      text NOT NULL,
  text        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX player_notes_player ON player_notes (player_id, id DESC);

-- The audit trail: seq has no gaps (taken under a transaction-scoped advisory lock, never from a
-- sequence), hash = SHA-256(prev_hash || canonical JSON of the row), computed by the server
-- (modules/audit/audit-chain.ts).
CREATE TABLE audit_log (
  seq       bigint PRIMARY KEY CHECK (seq > 0),
  at        timestamptz NOT NULL,
  actor     text NOT NULL,
  action    text NOT NULL,
  target    text NOT NULL,
  before    jsonb,
  after     jsonb,
  reason    text NOT NULL,
  prev_hash text NOT NULL,
  hash      text NOT NULL UNIQUE
);
CREATE INDEX audit_log_actor ON audit_log (actor, seq);
CREATE INDEX audit_log_action ON audit_log (action, seq);
CREATE INDEX audit_log_target ON audit_log (target, seq);
CREATE INDEX audit_log_at ON audit_log (at);

-- Signed heads: (seq, hash) of the chain, signed with a key that lives outside the database.
CREATE TABLE audit_heads (
  seq       bigint PRIMARY KEY,
  hash      text NOT NULL,
  signed_at timestamptz NOT NULL,
  key_id    text NOT NULL,
  signature text NOT NULL
);

CREATE FUNCTION forbid_audit_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit trail is append-only (% on %)', TG_OP, TG_TABLE_NAME;
END $$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION forbid_audit_change();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION forbid_audit_change();
CREATE TRIGGER audit_heads_append_only BEFORE UPDATE OR DELETE ON audit_heads
  FOR EACH ROW EXECUTE FUNCTION forbid_audit_change();
CREATE TRIGGER audit_heads_no_truncate BEFORE TRUNCATE ON audit_heads
  FOR EACH STATEMENT EXECUTE FUNCTION forbid_audit_change();

-- Grants: nobody but the owner may change the trail, and the owner gives the right up too. A
-- superuser (the embedded database's role) ignores grants: there the triggers and the signed heads
-- are what stand (docs/operator.md).
REVOKE UPDATE, DELETE, TRUNCATE ON audit_log, audit_heads FROM PUBLIC;
DO $$
BEGIN
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON audit_log, audit_heads FROM %I', current_user);
  END IF;
END $$;
