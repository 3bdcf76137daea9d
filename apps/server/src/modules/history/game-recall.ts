/** A session's game cycles as the records hold them (the game recall): only the player's own sessions. */
import type { RecalledGame } from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';

interface RecallRow {
  created_at: Date;
  bet_cents: number;
  win_cents: number;
  symbols: string[][];
  line_wins: RecalledGame['lineWins'] | null;
  credits_before: number;
  credits_after: number;
  free_spin: boolean;
  jackpot: boolean;
}

const toGame = (row: RecallRow): RecalledGame => ({
  time: row.created_at.toISOString(),
  betCents: row.bet_cents,
  winCents: row.win_cents,
  symbols: row.symbols,
  lineWins: row.line_wins ?? [],
  creditsBeforeCents: row.credits_before,
  creditsAfterCents: row.credits_after,
  freeSpin: row.free_spin,
  jackpot: row.jackpot,
});

/** Undefined when the session is not the player's (or does not exist). */
export async function sessionGames(db: Queryable, playerId: number, sessionId: string, last?: number): Promise<RecalledGame[] | undefined> {
  const owned = await db.query('SELECT 1 FROM slot_sessions WHERE id = $1 AND player_id = $2', [sessionId, playerId]);
  if (!owned.rowCount) return undefined;
  const { rows } = await db.query<RecallRow>(
    `SELECT created_at, bet_cents::float8 AS bet_cents, win_cents::float8 AS win_cents, symbols, line_wins,
            credits_before::float8 AS credits_before, credits_after::float8 AS credits_after, free_spin, jackpot
       FROM game_cycles WHERE session_id = $1
      ORDER BY id ${last ? 'DESC LIMIT $2' : 'ASC'}`,
    last ? [sessionId, last] : [sessionId],
  );
  return rows.map(toGame);
}
