/** The `player_limits` table (one row per player and limit key); only this file writes it. */
import type { LimitKey } from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';

export interface LimitRow {
  key: LimitKey;
  value: number | null;
  pending: boolean;
  pending_value: number | null;
  requested_at: Date | null;
}

const COLUMNS = 'key, value::float8 AS value, pending, pending_value::float8 AS pending_value, requested_at';

export async function readLimits(db: Queryable, playerId: number, lock = false): Promise<LimitRow[]> {
  const { rows } = await db.query<LimitRow>(`SELECT ${COLUMNS} FROM player_limits WHERE player_id = $1 ORDER BY key${lock ? ' FOR UPDATE' : ''}`, [playerId]);
  return rows;
}

/** Sets the limit in force and drops any raise waiting for it. */
export async function applyLimit(db: Queryable, playerId: number, key: LimitKey, value: number | null) {
  await db.query(
    `INSERT INTO player_limits (player_id, key, value) VALUES ($1, $2, $3)
     ON CONFLICT (player_id, key) DO UPDATE SET value = $3, pending = false, pending_value = NULL, requested_at = NULL, updated_at = now()`,
    [playerId, key, value],
  );
}

/** Records a raise (or, with null, a removal) that waits for the delay and the player's confirmation. */
export async function requestRaise(db: Queryable, playerId: number, key: LimitKey, value: number | null, requestedAt: Date) {
  await db.query(
    `UPDATE player_limits SET pending = true, pending_value = $3, requested_at = $4, updated_at = now()
      WHERE player_id = $1 AND key = $2`,
    [playerId, key, value, requestedAt],
  );
}
