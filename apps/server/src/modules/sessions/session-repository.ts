/** The `slot_sessions` SQL: open, resume, disconnect, close and read a session row. */
import { randomUUID } from 'node:crypto';
import { Code } from '@reel/protocol';
import type { Queryable, Tx } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import { walletBalance } from '../ledger/ledger.js';
import type { SessionRow } from './live-session.js';

type OpenRow = SessionRow & { machine_name: string };

/** After a (re)start every open session waits in grace (its player is gone) or finishes its cash out. */
export async function reopenAfterRestart(db: Queryable): Promise<OpenRow[]> {
  const { rows } = await db.query<OpenRow>(
    `UPDATE slot_sessions s SET status = CASE WHEN s.status = 'cashing_out' THEN 'cashing_out' ELSE 'disconnected' END,
            disconnected_at = coalesce(s.disconnected_at, now())
       FROM machines m WHERE m.id = s.machine_id AND s.status <> 'closed'
      RETURNING s.*, m.name AS machine_name`,
  );
  return rows;
}

/**
 * Resumes the player's open session on the machine or opens a new one, under the machine's and the
 * sessions' row locks: one session per machine and per player.
 */
export async function openSession(tx: Tx, input: { playerId: number; machineId: number; cabinetReady: boolean; allowZeroBalance: boolean }) {
  const { playerId, machineId } = input;
  const machine = await tx.query<{ id: number; name: string; enabled: boolean }>('SELECT id, name, enabled FROM machines WHERE id = $1 FOR UPDATE', [machineId]);
  const m = machine.rows[0];
  if (!m) throw new AppError(Code.NotFound, 404);
  const open = await tx.query<OpenRow>(
    `SELECT s.*, m.name AS machine_name FROM slot_sessions s JOIN machines m ON m.id = s.machine_id
      WHERE s.status <> 'closed' AND (s.machine_id = $1 OR s.player_id = $2) FOR UPDATE OF s`,
    [machineId, playerId],
  );
  const mine = open.rows.find((r) => r.player_id === playerId);
  if (mine && mine.machine_id !== machineId) {
    throw new AppError(Code.OpenSessionElsewhere, 409, { machine: mine.machine_name, machineId: mine.machine_id });
  }
  if (open.rows.some((r) => r.player_id !== playerId)) throw new AppError(Code.MachineBusy, 409);
  if (mine) {
    const { rows } = await tx.query<SessionRow>(
      `UPDATE slot_sessions SET status = CASE WHEN status = 'cashing_out' THEN status ELSE 'active' END,
              disconnected_at = NULL, last_activity_at = now() WHERE id = $1 RETURNING *`,
      [mine.id],
    );
    return { session: rows[0]!, resumed: true, machineName: m.name };
  }
  if (!m.enabled || !input.cabinetReady) throw new AppError(Code.MachineNotAvailable, 409);
  if (!input.allowZeroBalance && (await walletBalance(tx, playerId)).balance === 0) throw new AppError(Code.InsufficientBalance, 409);
  const { rows } = await tx.query<SessionRow>(
    "INSERT INTO slot_sessions (id, player_id, machine_id, status) VALUES ($1, $2, $3, 'active') RETURNING *",
    [randomUUID(), playerId, machineId],
  );
  return { session: rows[0]!, resumed: false, machineName: m.name };
}

export async function markDisconnected(db: Queryable, sessionId: string) {
  await db.query("UPDATE slot_sessions SET status = CASE WHEN status = 'active' THEN 'disconnected' ELSE status END, disconnected_at = now() WHERE id = $1", [sessionId]);
}

export async function markActivity(db: Queryable, sessionId: string) {
  await db.query('UPDATE slot_sessions SET last_activity_at = now() WHERE id = $1', [sessionId]);
}

export async function markClosing(db: Queryable, sessionId: string, reason: string) {
  await db.query('UPDATE slot_sessions SET closing = true, close_reason = coalesce(close_reason, $2) WHERE id = $1', [sessionId, reason]);
}

/** A held session has nothing left on the machine: closing it only closes the row. */
export async function closeHeldSession(db: Queryable, sessionId: string) {
  await db.query(
    "UPDATE slot_sessions SET status = 'closed', closing = true, ended_at = coalesce(ended_at, now()), close_reason = coalesce(close_reason, 'machine malfunction') WHERE id = $1 AND status <> 'closed'",
    [sessionId],
  );
}

/** The session goes to `cashing_out` and counts one more cash out; undefined when it closed meanwhile. */
export async function startCashOut(tx: Tx, sessionId: string, closing: boolean) {
  const { rows } = await tx.query<{ cashouts: number }>(
    "UPDATE slot_sessions SET status = 'cashing_out', cashouts = cashouts + 1, closing = closing OR $2 WHERE id = $1 AND status <> 'closed' RETURNING cashouts",
    [sessionId, closing],
  );
  return rows[0]?.cashouts;
}

export async function readSessionRow(db: Queryable, sessionId: string): Promise<SessionRow> {
  const { rows } = await db.query<SessionRow>('SELECT * FROM slot_sessions WHERE id = $1', [sessionId]);
  return rows[0]!;
}
