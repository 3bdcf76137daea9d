-- Player protection (issue 28; docs/sessions.md "Player protection"). One migration number for the
-- whole feature: later statements of the feature are added here.

-- The player's own limits, one row per limit key. `value` is the limit in force (NULL: none);
-- a raise or removal waits as `pending` (its value NULL for a removal) until the player confirms it,
-- no sooner than LIMIT_INCREASE_DELAY_H after `requested_at`.
CREATE TABLE player_limits (
  player_id     integer NOT NULL REFERENCES players(id),
  key           text NOT NULL CHECK (key IN ('deposit_day', 'deposit_week', 'deposit_month', 'loss_day', 'loss_week', 'loss_month', 'session_minutes')),
  value         bigint CHECK (value > 0),
  pending       boolean NOT NULL DEFAULT false,
  pending_value bigint CHECK (pending_value > 0),
  requested_at  timestamptz,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (player_id, key),
  CHECK (NOT pending OR requested_at IS NOT NULL)
);

-- The loss limits add up the player's recorded games of a period.
CREATE INDEX game_cycles_session_time ON game_cycles (session_id, created_at);

-- Breaks the player takes: a cool-off or a self-exclusion. Active while starts_at <= now < ends_at
-- and not ended early; only an admin ends a self-exclusion early, with a reason (ended_by, end_reason).
CREATE TABLE player_breaks (
  id             bigserial PRIMARY KEY,
  player_id      integer NOT NULL REFERENCES players(id),
  kind           text NOT NULL CHECK (kind IN ('cool_off', 'self_exclusion')),
  period         text NOT NULL,
  starts_at      timestamptz NOT NULL,
  ends_at        timestamptz NOT NULL CHECK (ends_at > starts_at),
  ended_early_at timestamptz,
  ended_by       integer REFERENCES players(id),
  end_reason     text CHECK (end_reason IS NULL OR length(end_reason) BETWEEN 1 AND 1000),
  created_at     timestamptz NOT NULL DEFAULT now(),
  CHECK ((ended_early_at IS NULL) = (end_reason IS NULL))
);
CREATE INDEX player_breaks_player ON player_breaks (player_id, ends_at DESC);

-- The reality check: every N minutes of play (the player's choice) the next spin is held until the
-- player acknowledges a summary. `reality_checks` keeps each session's last acknowledgement.
CREATE TABLE player_protection_settings (
  player_id             integer PRIMARY KEY REFERENCES players(id),
  reality_check_minutes integer NOT NULL DEFAULT 60 CHECK (reality_check_minutes BETWEEN 1 AND 1440)
);
CREATE TABLE reality_checks (
  session_id      uuid PRIMARY KEY REFERENCES slot_sessions(id),
  acknowledged_at timestamptz NOT NULL
);

-- The game recall shows each game's winning lines as the machine reported them (NULL for games
-- recorded before this).
ALTER TABLE game_cycles ADD COLUMN line_wins jsonb;
