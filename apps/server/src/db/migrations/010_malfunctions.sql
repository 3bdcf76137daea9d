-- Every malfunction the server found (docs/money.md, "The records decide"): a cabinet's meters, or a
-- cash out, that did not follow from the game records. One row per finding, written in the
-- transaction that settled it, for the operator (`npm run operator -- malfunctions`) and the fault
-- suite, which counts each one as a violation. On a healthy machine there are none.
CREATE TABLE malfunctions (
  id                 bigserial PRIMARY KEY,
  at                 timestamptz NOT NULL DEFAULT now(),
  machine_id         integer NOT NULL REFERENCES machines(id),
  -- The session settled from the records; null when the machine had none (credits nobody owns).
  session_id         uuid REFERENCES slot_sessions(id),
  player_id          integer REFERENCES players(id),
  reason             text NOT NULL CHECK (reason IN ('meters', 'memory', 'cash_out')),
  -- The credits the records give, and what the cabinet's meter showed (or its cash out paid).
  records_cents      bigint NOT NULL,
  machine_cents      bigint NOT NULL,
  -- Paid to the player (a Hand Pay), and the part of it above the records that the house paid.
  paid_cents         bigint,
  adjustment_cents   bigint NOT NULL DEFAULT 0,
  memory_id          text,
  previous_memory_id text,
  -- The cycles involved: the session's last recorded games, the cabinet's last games (its recall),
  -- and the ids of the cabinet's games missing from the records.
  recorded_games     jsonb NOT NULL DEFAULT '[]',
  cabinet_games      jsonb NOT NULL DEFAULT '[]',
  missing_games      text[] NOT NULL DEFAULT '{}'
);
CREATE INDEX malfunctions_machine ON malfunctions (machine_id, at DESC);
