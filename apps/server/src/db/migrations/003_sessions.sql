-- Outbox of money commands sent to cabinets (credit in, cash out, hand pay). The ledger side is
-- written in the same transaction as the row; the cabinet runs each command id at most once, so a
-- command left pending by a crash is simply sent again with the same id.
CREATE TABLE machine_commands (
  command_id   text PRIMARY KEY,
  machine_id   integer NOT NULL REFERENCES machines(id),
  session_id   uuid REFERENCES slot_sessions(id),
  player_id    integer REFERENCES players(id),
  type         text NOT NULL CHECK (type IN ('credit_in', 'cash_out', 'hand_pay')),
  amount_cents bigint,
  status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'refunded')),
  created_at   timestamptz NOT NULL DEFAULT now(),
  done_at      timestamptz
);
CREATE INDEX machine_commands_pending ON machine_commands (machine_id) WHERE status = 'pending';

ALTER TABLE slot_sessions ADD COLUMN cashouts integer NOT NULL DEFAULT 0;
ALTER TABLE slot_sessions ADD COLUMN closing boolean NOT NULL DEFAULT false;
ALTER TABLE slot_sessions ADD COLUMN win_cents bigint NOT NULL DEFAULT 0;
ALTER TABLE slot_sessions ADD COLUMN bet_cents bigint NOT NULL DEFAULT 0;
