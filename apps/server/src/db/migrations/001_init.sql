-- Players, sign-in, machines, the money ledger, play sessions, support chat.
-- Amounts are integer cents (bigint) everywhere.

CREATE TABLE players (
  id                  serial PRIMARY KEY,
  username            text NOT NULL,
  email               text NOT NULL,
  name                text NOT NULL DEFAULT '',
  lastname            text NOT NULL DEFAULT '',
  password_hash       text NOT NULL,
  password_changed_at timestamptz,
  pin_hash            text,
  group_name          text NOT NULL DEFAULT 'player',
  permissions         integer[] NOT NULL DEFAULT '{145}',
  user_type           text NOT NULL DEFAULT 'player',
  roles               text[] NOT NULL DEFAULT '{user}',
  banned              boolean NOT NULL DEFAULT false,
  failed_logins       integer NOT NULL DEFAULT 0,
  blocked_until       timestamptz,
  last_logon          timestamptz,
  last_logon_ip       text,
  settings            jsonb NOT NULL DEFAULT '{}',
  shortcuts           text[] NOT NULL DEFAULT '{}',
  created_at          timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX players_username_key ON players (lower(username));
CREATE UNIQUE INDEX players_email_key ON players (lower(email));

-- Issued access tokens; revoking one stops it at once everywhere.
CREATE TABLE auth_tokens (
  jti        uuid PRIMARY KEY,
  player_id  integer NOT NULL REFERENCES players(id),
  issued_at  timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  ip         text
);
CREATE INDEX auth_tokens_player ON auth_tokens (player_id) WHERE revoked_at IS NULL;

-- Every sign-in attempt and account event, with the spec's log type names.
CREATE TABLE auth_log (
  id         bigserial PRIMARY KEY,
  player_id  integer REFERENCES players(id),
  username   text,
  type       text NOT NULL,
  ip         text,
  detail     jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_log_player ON auth_log (player_id, created_at DESC);

CREATE TABLE brands (
  id         serial PRIMARY KEY,
  name       text NOT NULL UNIQUE,
  image      text,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Progressive jackpot levels per brand group; amount grows with play.
CREATE TABLE jackpots (
  brand_id     integer NOT NULL REFERENCES brands(id),
  level        integer NOT NULL,
  seed_cents   bigint NOT NULL CHECK (seed_cents >= 0),
  amount_cents bigint NOT NULL CHECK (amount_cents >= 0),
  PRIMARY KEY (brand_id, level)
);

CREATE TABLE machines (
  id                  serial PRIMARY KEY,
  brand_id            integer NOT NULL REFERENCES brands(id),
  name                text NOT NULL,
  image               text,
  video_type          text NOT NULL DEFAULT 'screen' CHECK (video_type IN ('screen', 'camera')),
  -- The machine agent authenticates with this key; only its hash is stored.
  key_hash            text NOT NULL,
  reservation         boolean NOT NULL DEFAULT false,
  enabled             boolean NOT NULL DEFAULT true,
  handpay_limit_cents bigint NOT NULL DEFAULT 1000000,
  cabinet_state       text NOT NULL DEFAULT 'offline',
  created_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX machines_brand ON machines (brand_id);

-- Double-entry ledger. Player wallets (one account per part) and machine credit meters keep a stored
-- balance that may never go negative; the house, cashier and promotions accounts are counterparties
-- whose balance is the sum of their entries (not stored, so they are never a hot row).
CREATE TABLE accounts (
  id         bigserial PRIMARY KEY,
  kind       text NOT NULL CHECK (kind IN ('wallet', 'machine', 'house', 'cashier', 'promotions')),
  part       text CHECK (part IN ('cash', 'credit', 'bonus', 'discount')),
  player_id  integer REFERENCES players(id),
  machine_id integer REFERENCES machines(id),
  balance    bigint NOT NULL DEFAULT 0,
  CHECK (balance >= 0),
  CHECK ((kind = 'wallet') = (player_id IS NOT NULL AND part IS NOT NULL)),
  CHECK ((kind = 'machine') = (machine_id IS NOT NULL))
);
CREATE UNIQUE INDEX accounts_wallet_part ON accounts (player_id, part) WHERE kind = 'wallet';
CREATE UNIQUE INDEX accounts_machine ON accounts (machine_id) WHERE kind = 'machine';
CREATE UNIQUE INDEX accounts_system ON accounts (kind) WHERE kind IN ('house', 'cashier', 'promotions');
INSERT INTO accounts (kind) VALUES ('house'), ('cashier'), ('promotions');

-- One row per money movement request; the idempotency key makes retries return the first answer.
CREATE TABLE ledger_operations (
  id              bigserial PRIMARY KEY,
  player_id       integer REFERENCES players(id),
  idempotency_key text,
  request_hash    text,
  kind            text NOT NULL,
  action_code     smallint CHECK (action_code BETWEEN 1 AND 6),
  machine_id      integer REFERENCES machines(id),
  session_id      uuid,
  amount_cents    bigint NOT NULL CHECK (amount_cents > 0),
  tag             text,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX ledger_operations_idempotency ON ledger_operations (player_id, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE INDEX ledger_operations_player ON ledger_operations (player_id, id DESC);
CREATE INDEX ledger_operations_session ON ledger_operations (session_id);

-- Append-only postings; the entries of one operation sum to zero.
CREATE TABLE ledger_entries (
  id           bigserial PRIMARY KEY,
  operation_id bigint NOT NULL REFERENCES ledger_operations(id),
  account_id   bigint NOT NULL REFERENCES accounts(id),
  amount_cents bigint NOT NULL CHECK (amount_cents <> 0)
);
CREATE INDEX ledger_entries_operation ON ledger_entries (operation_id);
CREATE INDEX ledger_entries_account ON ledger_entries (account_id);

CREATE FUNCTION forbid_ledger_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only';
END $$;
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION forbid_ledger_change();
CREATE TRIGGER ledger_operations_append_only BEFORE UPDATE OR DELETE ON ledger_operations
  FOR EACH ROW EXECUTE FUNCTION forbid_ledger_change();

-- Discount and bonus cooldowns, enforced under a row lock.
CREATE TABLE promotion_claims (
  player_id     integer NOT NULL REFERENCES players(id),
  kind          text NOT NULL CHECK (kind IN ('discount', 'bonus')),
  last_claim_at timestamptz NOT NULL,
  PRIMARY KEY (player_id, kind)
);

-- Play sessions: joining → active ⇄ disconnected → cashing_out → closed.
CREATE TABLE slot_sessions (
  id               uuid PRIMARY KEY,
  player_id        integer NOT NULL REFERENCES players(id),
  machine_id       integer NOT NULL REFERENCES machines(id),
  status           text NOT NULL CHECK (status IN ('joining', 'active', 'disconnected', 'cashing_out', 'closed')),
  started_at       timestamptz NOT NULL DEFAULT now(),
  ended_at         timestamptz,
  last_activity_at timestamptz NOT NULL DEFAULT now(),
  disconnected_at  timestamptz,
  spins            integer NOT NULL DEFAULT 0,
  free_spins       integer NOT NULL DEFAULT 0,
  cash_in_cents    bigint NOT NULL DEFAULT 0,
  cash_out_cents   bigint NOT NULL DEFAULT 0,
  close_reason     text
);
CREATE UNIQUE INDEX slot_sessions_open_machine ON slot_sessions (machine_id) WHERE status <> 'closed';
CREATE UNIQUE INDEX slot_sessions_open_player ON slot_sessions (player_id) WHERE status <> 'closed';
CREATE INDEX slot_sessions_player ON slot_sessions (player_id, started_at DESC);

-- Each game cycle the cabinet reports, kept for recall and audit.
CREATE TABLE game_cycles (
  id            bigserial PRIMARY KEY,
  session_id    uuid REFERENCES slot_sessions(id),
  machine_id    integer NOT NULL REFERENCES machines(id),
  command_id    text,
  bet_cents     bigint NOT NULL,
  win_cents     bigint NOT NULL,
  symbols       jsonb NOT NULL,
  credits_before bigint NOT NULL,
  credits_after  bigint NOT NULL,
  free_spin     boolean NOT NULL DEFAULT false,
  jackpot       boolean NOT NULL DEFAULT false,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX game_cycles_session ON game_cycles (session_id);
CREATE INDEX game_cycles_machine ON game_cycles (machine_id, created_at DESC);

-- Support chat: contacts are support agents; messages persist per player and agent.
CREATE TABLE chat_agents (
  id     text PRIMARY KEY,
  name   text NOT NULL,
  avatar text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'online' CHECK (status IN ('online', 'do-not-disturb', 'away', 'offline')),
  mood   text NOT NULL DEFAULT ''
);
CREATE TABLE chat_messages (
  id         bigserial PRIMARY KEY,
  player_id  integer NOT NULL REFERENCES players(id),
  agent_id   text NOT NULL REFERENCES chat_agents(id),
  from_player boolean NOT NULL,
  message    text NOT NULL CHECK (length(message) BETWEEN 1 AND 2000),
  read_at    timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_messages_thread ON chat_messages (player_id, agent_id, id);

-- Quick panel events and notes; player_id NULL means for everyone.
CREATE TABLE quick_panel_items (
  id         bigserial PRIMARY KEY,
  player_id  integer REFERENCES players(id),
  kind       text NOT NULL CHECK (kind IN ('event', 'note')),
  title      text NOT NULL,
  detail     text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
