/**
 * What a player used of a limit since a time, read from the ledger and the game records (never
 * written here): cash ins net of refused ones, and the net loss of the recorded games.
 */
import type { Queryable } from '../../db/pool.js';

/** Cash ins since `since` (cents), less the ones the machine refused and the wallet got back. */
export async function depositedSince(db: Queryable, playerId: number, since: Date): Promise<number> {
  const { rows } = await db.query<{ cents: number }>(
    `SELECT coalesce(sum(CASE WHEN kind = 'cash_in' THEN amount_cents ELSE -amount_cents END), 0)::float8 AS cents
       FROM ledger_operations
      WHERE player_id = $1 AND created_at >= $2
        AND (kind = 'cash_in' OR (kind = 'cash_out' AND idempotency_key LIKE 'refund:ci-%'))`,
    [playerId, since],
  );
  return Math.max(0, rows[0]?.cents ?? 0);
}

/** The net loss (bets less wins) of the games recorded since `since`, never below 0 (cents). */
export async function lostSince(db: Queryable, playerId: number, since: Date): Promise<number> {
  const { rows } = await db.query<{ cents: number }>(
    `SELECT coalesce(sum(g.bet_cents - g.win_cents), 0)::float8 AS cents
       FROM game_cycles g JOIN slot_sessions s ON s.id = g.session_id
      WHERE s.player_id = $1 AND g.created_at >= $2`,
    [playerId, since],
  );
  return Math.max(0, rows[0]?.cents ?? 0);
}

/** When the player's open play session started, if one is open (the session time limit counts from it). */
export async function openSessionStart(db: Queryable, playerId: number): Promise<Date | undefined> {
  const { rows } = await db.query<{ started_at: Date }>("SELECT started_at FROM slot_sessions WHERE player_id = $1 AND status <> 'closed'", [playerId]);
  return rows[0]?.started_at;
}
