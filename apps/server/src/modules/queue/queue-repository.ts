/**
 * The `machine_queue` SQL, and the only file that writes the table (migration 016): entries in,
 * out, the ready check's seat held and passed on. Deadlines are the database's clock (`now()`), so
 * every server and a restarted one read the same remaining time.
 */
import { Code } from '@reel/protocol';
import type { Queryable, Tx } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';

/** One entry as its player is shown it (queue-service.ts turns it into the protocol's QueueEntry). */
export interface LineRow {
  player_id: number;
  machine_id: number;
  machine_name: string;
  position: number;
  length: number;
  /** Milliseconds of the ready check left (null: waiting in line). */
  ready_ms: number | null;
  ready_until: Date | null;
  /** The machine's typical session, and how long the current one has run (the wait estimate). */
  typical_s: number;
  current_s: number;
}

/** The line of one machine, or of every machine (`machineId` null), with each entry's figures. */
const LINE_SQL = `
  WITH line AS (
    SELECT q.*, row_number() OVER (PARTITION BY q.machine_id ORDER BY q.id)::int AS position,
           count(*) OVER (PARTITION BY q.machine_id)::int AS length
      FROM machine_queue q WHERE ($1::int IS NULL OR q.machine_id = $1)
  )
  SELECT l.player_id, l.machine_id, m.name AS machine_name, l.position, l.length, l.ready_until,
         CASE WHEN l.ready_until IS NULL THEN NULL
              ELSE greatest(0, floor(extract(epoch FROM l.ready_until - now()) * 1000))::int END AS ready_ms,
         coalesce((SELECT avg(extract(epoch FROM d.ended_at - d.started_at))::int FROM (
                     SELECT ended_at, started_at FROM slot_sessions s
                      WHERE s.machine_id = l.machine_id AND s.status = 'closed' AND s.ended_at IS NOT NULL
                      ORDER BY s.ended_at DESC LIMIT 20) d), $2::int) AS typical_s,
         coalesce((SELECT extract(epoch FROM now() - s.started_at)::int FROM slot_sessions s
                    WHERE s.machine_id = l.machine_id AND s.status <> 'closed' LIMIT 1), 0) AS current_s
    FROM line l JOIN machines m ON m.id = l.machine_id`;

export async function lineOf(db: Queryable, machineId: number, defaultSessionS: number): Promise<LineRow[]> {
  const { rows } = await db.query<LineRow>(`${LINE_SQL} ORDER BY l.position`, [machineId, defaultSessionS]);
  return rows;
}

/** The player's entry with its figures, or undefined when the player is in no line. */
export async function entryOf(
  db: Queryable,
  playerId: number,
  defaultSessionS: number,
): Promise<LineRow | undefined> {
  const row = await entryRow(db, playerId);
  if (!row) return undefined;
  return (await lineOf(db, row.machine_id, defaultSessionS)).find((r) => r.player_id === playerId);
}

/** The player's entry, if any: its machine. */
export async function entryRow(db: Queryable, playerId: number) {
  const { rows } = await db.query<{ machine_id: number; machine_name: string }>(
    'SELECT q.machine_id, m.name AS machine_name FROM machine_queue q JOIN machines m ON m.id = q.machine_id WHERE q.player_id = $1',
    [playerId],
  );
  return rows[0];
}

/** Joins the end of the machine's line; a second entry of the player (a race) is 40930. */
export async function insertEntry(tx: Tx, machineId: number, playerId: number) {
  await tx.query('SAVEPOINT queue_insert');
  try {
    await tx.query('INSERT INTO machine_queue (machine_id, player_id) VALUES ($1, $2)', [
      machineId,
      playerId,
    ]);
  } catch (error) {
    if ((error as { code?: string }).code !== '23505') throw error;
    await tx.query('ROLLBACK TO SAVEPOINT queue_insert');
    throw new AppError(Code.QueueElsewhere, 409, { machine: '' });
  }
}

/** The player leaves whatever line they are in; answers the machine, or undefined when none. */
export async function deleteEntry(db: Queryable, playerId: number): Promise<number | undefined> {
  const { rows } = await db.query<{ machine_id: number }>(
    'DELETE FROM machine_queue WHERE player_id = $1 RETURNING machine_id',
    [playerId],
  );
  return rows[0]?.machine_id;
}

/**
 * Ready checks past their deadline end: their entries leave the line (the turn passes). One
 * statement deletes each row once, so however many servers ask, each turn passes once.
 */
export async function expireReadyChecks(
  db: Queryable,
): Promise<{ machine_id: number; player_id: number; machine_name: string }[]> {
  const { rows } = await db.query<{ machine_id: number; player_id: number; machine_name: string }>(
    `DELETE FROM machine_queue q USING machines m
      WHERE m.id = q.machine_id AND q.ready_until IS NOT NULL AND q.ready_until <= now()
      RETURNING q.machine_id, q.player_id, m.name AS machine_name`,
  );
  return rows;
}

/** Machines with a line but nobody holding the seat: each may be free for its first in line. */
export async function linesWithoutHolder(db: Queryable): Promise<number[]> {
  const { rows } = await db.query<{ machine_id: number }>(
    `SELECT DISTINCT machine_id FROM machine_queue q
      WHERE NOT EXISTS (SELECT 1 FROM machine_queue h WHERE h.machine_id = q.machine_id AND h.ready_until IS NOT NULL)`,
  );
  return rows.map((r) => r.machine_id);
}

/**
 * The first in line gets the seat for `readyMs` (inside the caller's transaction, which holds the
 * machine's row lock). The partial unique index allows one holder per machine, whatever races.
 */
export async function holdSeatForFirst(
  tx: Tx,
  machineId: number,
  readyMs: number,
): Promise<number | undefined> {
  const { rows } = await tx.query<{ player_id: number }>(
    `UPDATE machine_queue SET ready_until = now() + make_interval(secs => $2::double precision / 1000)
      WHERE id = (SELECT id FROM machine_queue WHERE machine_id = $1 ORDER BY id LIMIT 1)
        AND NOT EXISTS (SELECT 1 FROM machine_queue h WHERE h.machine_id = $1 AND h.ready_until IS NOT NULL)
      RETURNING player_id`,
    [machineId, readyMs],
  );
  return rows[0]?.player_id;
}

/**
 * Asked by a join that would open a new session (sessions/session-repository.ts, under the machine's
 * row lock): `free` when nobody waits, `seated` when the player held the seat (the entry is used up
 * here, in the join's transaction), `held` when the machine belongs to its line.
 */
export async function takeQueuedSeat(
  tx: Tx,
  machineId: number,
  playerId: number,
): Promise<'free' | 'seated' | 'held'> {
  const { rows } = await tx.query<{ player_id: number; holds: boolean }>(
    'SELECT player_id, ready_until > now() AS holds FROM machine_queue WHERE machine_id = $1',
    [machineId],
  );
  if (rows.length === 0) return 'free';
  if (!rows.some((r) => r.player_id === playerId && r.holds)) return 'held';
  await tx.query('DELETE FROM machine_queue WHERE player_id = $1', [playerId]);
  return 'seated';
}
