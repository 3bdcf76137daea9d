/** The auth log: one row per sign-in attempt, check, logout, kick and password change (spec section 3). */
import type { Queryable } from '../../db/pool.js';

export interface AuthLogEntry {
  playerId?: number | null;
  username?: string;
  type: string;
  ip: string;
  detail?: object;
  siteId?: number;
}

export async function writeAuthLog(db: Queryable, entry: AuthLogEntry) {
  await db.query('INSERT INTO auth_log (player_id, username, type, ip, detail, site_id) VALUES ($1, $2, $3, $4, $5, $6)', [
    entry.playerId ?? null,
    entry.username ?? null,
    entry.type,
    entry.ip,
    JSON.stringify(entry.detail ?? {}),
    entry.siteId ?? null,
  ]);
}
