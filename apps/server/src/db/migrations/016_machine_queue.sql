-- The queue for a busy machine (issue 29; modules/queue, the only writer). One live entry per
-- player; a machine's line is its entries in id order. The first in line gets a ready check when
-- the machine frees: `ready_until` is set on its row, and while it is set nobody else may open a
-- session on the machine. At most one row per machine holds the seat (a unique constraint, so two
-- servers, or a restart in the middle, can never hand it to two players). The deadline lives here:
-- a restarted server resumes it from the table, and the statement that passes an expired turn on
-- deletes the row it expires, so the turn passes once.
CREATE TABLE machine_queue (
  id           bigserial PRIMARY KEY,
  machine_id   integer NOT NULL REFERENCES machines(id),
  player_id    integer NOT NULL REFERENCES players(id),
  joined_at    timestamptz NOT NULL DEFAULT now(),
  ready_until  timestamptz
);
CREATE UNIQUE INDEX machine_queue_one_entry_per_player ON machine_queue (player_id);
CREATE UNIQUE INDEX machine_queue_one_holder_per_machine ON machine_queue (machine_id) WHERE ready_until IS NOT NULL;
CREATE INDEX machine_queue_line ON machine_queue (machine_id, id);
