/** The `player_breaks` table (cool-offs and self-exclusions); only this file writes it. */
import type { BreakKind, BreakPeriod } from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';

export interface BreakRow {
  id: number;
  kind: BreakKind;
  period: BreakPeriod;
  starts_at: Date;
  ends_at: Date;
  ended_early_at: Date | null;
  ended_by: number | null;
  end_reason: string | null;
}

const COLUMNS = 'id::int AS id, kind, period, starts_at, ends_at, ended_early_at, ended_by, end_reason';

/** The break in force at `at` (the one ending last, should two overlap). */
export async function activeBreak(db: Queryable, playerId: number, at: Date, lock = false): Promise<BreakRow | undefined> {
  const { rows } = await db.query<BreakRow>(
    `SELECT ${COLUMNS} FROM player_breaks
      WHERE player_id = $1 AND starts_at <= $2 AND ends_at > $2 AND ended_early_at IS NULL
      ORDER BY ends_at DESC LIMIT 1${lock ? ' FOR UPDATE' : ''}`,
    [playerId, at],
  );
  return rows[0];
}

/** A break with the username of the admin who ended it early, if one did. */
export interface StaffBreakRow extends BreakRow {
  ended_by_name: string | null;
}

/** Every break of the player, newest first (what staff see). */
export async function breaksOf(db: Queryable, playerId: number): Promise<StaffBreakRow[]> {
  const { rows } = await db.query<StaffBreakRow>(
    `SELECT ${COLUMNS}, (SELECT o.username FROM operators o WHERE o.id = player_breaks.ended_by) AS ended_by_name
       FROM player_breaks WHERE player_id = $1 ORDER BY starts_at DESC, id DESC`,
    [playerId],
  );
  return rows;
}

export async function insertBreak(db: Queryable, row: { playerId: number; kind: BreakKind; period: BreakPeriod; startsAt: Date; endsAt: Date }): Promise<BreakRow> {
  const { rows } = await db.query<BreakRow>(
    `INSERT INTO player_breaks (player_id, kind, period, starts_at, ends_at) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
    [row.playerId, row.kind, row.period, row.startsAt, row.endsAt],
  );
  return rows[0]!;
}

/** Ends a break early; `by` is the admin operator's id (migration 015). */
export async function endBreakEarly(db: Queryable, id: number, end: { at: Date; by: number; reason: string }) {
  await db.query('UPDATE player_breaks SET ended_early_at = $2, ended_by = $3, end_reason = $4 WHERE id = $1', [id, end.at, end.by, end.reason]);
}
