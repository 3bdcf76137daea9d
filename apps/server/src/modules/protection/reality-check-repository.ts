/** `player_protection_settings` and `reality_checks`; only this file writes them. */
import { REALITY_CHECK_MINUTES } from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';

export async function realityCheckMinutes(db: Queryable, playerId: number): Promise<number> {
  const { rows } = await db.query<{ minutes: number }>('SELECT reality_check_minutes AS minutes FROM player_protection_settings WHERE player_id = $1', [playerId]);
  return rows[0]?.minutes ?? REALITY_CHECK_MINUTES.default;
}

export async function setRealityCheckMinutes(db: Queryable, playerId: number, minutes: number) {
  await db.query(
    `INSERT INTO player_protection_settings (player_id, reality_check_minutes) VALUES ($1, $2)
     ON CONFLICT (player_id) DO UPDATE SET reality_check_minutes = $2`,
    [playerId, minutes],
  );
}

/** The player's open session with what the summary shows and its last acknowledgement. */
interface PlayingSession {
  id: string;
  started_at: Date;
  acknowledged_at: Date | null;
  spins: number;
  cash_in_cents: number;
  cash_out_cents: number;
  win_cents: number;
  bet_cents: number;
}

export async function playingSession(db: Queryable, sessionId: string): Promise<PlayingSession | undefined> {
  const { rows } = await db.query<PlayingSession>(
    `SELECT s.id, s.started_at, r.acknowledged_at, s.spins, s.cash_in_cents::float8 AS cash_in_cents,
            s.cash_out_cents::float8 AS cash_out_cents, s.win_cents::float8 AS win_cents, s.bet_cents::float8 AS bet_cents
       FROM slot_sessions s LEFT JOIN reality_checks r ON r.session_id = s.id WHERE s.id = $1`,
    [sessionId],
  );
  return rows[0];
}

export async function openSessionId(db: Queryable, playerId: number): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>("SELECT id FROM slot_sessions WHERE player_id = $1 AND status <> 'closed'", [playerId]);
  return rows[0]?.id;
}

export async function acknowledge(db: Queryable, sessionId: string, at: Date) {
  await db.query(
    `INSERT INTO reality_checks (session_id, acknowledged_at) VALUES ($1, $2)
     ON CONFLICT (session_id) DO UPDATE SET acknowledged_at = $2`,
    [sessionId, at],
  );
}
