-- A self-exclusion is ended early by an admin operator (issue 27's console), and operators are not
-- players: player_breaks.ended_by names an operator. Migration 014 was written before the operators
-- table met it and pointed the column at players. Nothing called the early end before this
-- migration, so no row can hold a real admin; an id that is no operator is cleared rather than
-- misread as one (end_reason and ended_early_at stay).
ALTER TABLE player_breaks DROP CONSTRAINT IF EXISTS player_breaks_ended_by_fkey;
UPDATE player_breaks b SET ended_by = NULL
 WHERE ended_by IS NOT NULL AND NOT EXISTS (SELECT 1 FROM operators o WHERE o.id = b.ended_by);
ALTER TABLE player_breaks ADD CONSTRAINT player_breaks_ended_by_fkey FOREIGN KEY (ended_by) REFERENCES operators(id);
