/**
 * The `malfunctions` table: one row for every time the server found a cabinet's meters (or a cash
 * out) off the game records, with the session, both amounts, what was paid and the cycles involved,
 * so that an operator sees each one (`npm run operator -- malfunctions`) and the fault suite counts
 * them. Written in the transaction that settles the session.
 */
import type { GameCycle } from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';

/** What the server found: the records' credits against the cabinet's (meter, memory, or cash out). */
export interface MalfunctionDetail {
  reason: 'meters' | 'memory' | 'cash_out';
  expectedCents: number;
  reportedCents: number;
  memoryId?: string;
  previousMemoryId?: string | null;
}

/** How many of the session's last recorded games a row keeps. */
const RECORDED_GAMES_KEPT = 20;

interface MalfunctionEvent {
  machineId: number;
  sessionId: string | null;
  playerId: number | null;
  detail: MalfunctionDetail;
  /** Paid to the player; null when there was no session to settle. */
  paidCents: number | null;
  adjustmentCents: number;
  /** The cabinet's last games as its recall reported them (none for a cash out). */
  cabinetGames: readonly GameCycle[];
}

interface MalfunctionRow {
  id: number;
  at: Date;
  machine_id: number;
  session_id: string | null;
  username: string | null;
  reason: MalfunctionDetail['reason'];
  records_cents: number;
  machine_cents: number;
  paid_cents: number | null;
  adjustment_cents: number;
  recorded_games: { gameId: string; betCents: number; winCents: number; creditsBeforeCents: number; creditsAfterCents: number }[];
  cabinet_games: { gameId: string; betCents: number; winCents: number; creditsAfterCents: number }[];
  missing_games: string[];
}

export async function logMalfunction(q: Queryable, event: MalfunctionEvent): Promise<void> {
  const { detail } = event;
  const cabinetGames = event.cabinetGames.map((g) => ({
    gameId: g.gameId,
    startedMs: Math.round(g.startedAtMs),
    betCents: g.betCents,
    winCents: g.winCents,
    creditsAfterCents: g.creditsAfterCents,
  }));
  await q.query(
    `INSERT INTO malfunctions (machine_id, session_id, player_id, reason, records_cents, machine_cents, paid_cents, adjustment_cents,
                               memory_id, previous_memory_id, recorded_games, cabinet_games, missing_games)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10,
            coalesce((SELECT jsonb_agg(jsonb_build_object('gameId', r.game_id, 'betCents', r.bet_cents, 'winCents', r.win_cents,
                                                          'creditsBeforeCents', r.credits_before, 'creditsAfterCents', r.credits_after) ORDER BY r.id)
                        FROM (SELECT * FROM game_cycles WHERE session_id = $2 ORDER BY id DESC LIMIT ${RECORDED_GAMES_KEPT}) r), '[]'::jsonb),
            $11::jsonb,
            coalesce((SELECT array_agg(c->>'gameId' ORDER BY ordinality) FROM jsonb_array_elements($11::jsonb) WITH ORDINALITY AS games(c, ordinality)
                       WHERE NOT EXISTS (SELECT 1 FROM game_cycles g WHERE g.machine_id = $1 AND g.game_id = c->>'gameId' AND g.started_ms = (c->>'startedMs')::bigint)),
                     '{}')`,
    [
      event.machineId,
      event.sessionId,
      event.playerId,
      detail.reason,
      detail.expectedCents,
      detail.reportedCents,
      event.paidCents,
      event.adjustmentCents,
      detail.memoryId ?? null,
      detail.previousMemoryId ?? null,
      JSON.stringify(cabinetGames),
    ],
  );
}

/** The newest first. */
export async function listMalfunctions(q: Queryable, limit: number): Promise<MalfunctionRow[]> {
  const { rows } = await q.query<MalfunctionRow>(
    `SELECT m.id, m.at, m.machine_id, m.session_id, p.username, m.reason, m.records_cents, m.machine_cents, m.paid_cents,
            m.adjustment_cents, m.recorded_games, m.cabinet_games, m.missing_games
       FROM malfunctions m LEFT JOIN players p ON p.id = m.player_id
      ORDER BY m.id DESC LIMIT $1`,
    [limit],
  );
  return rows;
}
