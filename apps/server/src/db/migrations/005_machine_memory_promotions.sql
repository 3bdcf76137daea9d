-- Issue 9: the cabinet's critical memory against the server's game records, and promotion money
-- that keeps its kind through a machine.

-- The cabinet memory the server last found in agreement with its records, and the latest meter
-- fault (meters that did not follow from the recorded game cycles), for the operator.
ALTER TABLE machines ADD COLUMN memory_id text;
ALTER TABLE machines ADD COLUMN meter_fault jsonb;

-- A cycle is the cabinet's game id plus its start time (a cleared memory starts counting games
-- again): the cabinet re-sends its last games after a reconnect and each is recorded once.
ALTER TABLE game_cycles ADD COLUMN game_id text;
ALTER TABLE game_cycles ADD COLUMN started_ms bigint;
CREATE UNIQUE INDEX game_cycles_game ON game_cycles (machine_id, game_id, started_ms) WHERE game_id IS NOT NULL;

-- Promotion money loaded on the machine in this session and not yet wagered (it goes back to its
-- wallet part at cash out), the bets still needed before it counts as cash, and promotion money
-- already wagered that the next cash out pays as cash (shown as such in the history).
ALTER TABLE slot_sessions ADD COLUMN promo_bonus_cents bigint NOT NULL DEFAULT 0 CHECK (promo_bonus_cents >= 0);
ALTER TABLE slot_sessions ADD COLUMN promo_discount_cents bigint NOT NULL DEFAULT 0 CHECK (promo_discount_cents >= 0);
ALTER TABLE slot_sessions ADD COLUMN promo_wager_left_cents bigint NOT NULL DEFAULT 0 CHECK (promo_wager_left_cents >= 0);
ALTER TABLE slot_sessions ADD COLUMN promo_wagered_cents bigint NOT NULL DEFAULT 0 CHECK (promo_wagered_cents >= 0);
-- Set when the machine's meters did not follow from the records: the session is held and was
-- settled from the records ({ reason, expectedCents, reportedCents, paidCents, at }).
ALTER TABLE slot_sessions ADD COLUMN malfunction jsonb;

-- Commands that a malfunction settlement made pointless are voided, never sent again.
ALTER TABLE machine_commands DROP CONSTRAINT machine_commands_status_check;
ALTER TABLE machine_commands ADD CONSTRAINT machine_commands_status_check CHECK (status IN ('pending', 'done', 'refunded', 'void'));
