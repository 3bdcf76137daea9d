/**
 * The `hand_pays` SQL, and the only file that writes the table. A row is written in the
 * transaction that books the machine's hand pay cash out (the win taken into the house's keeping);
 * it moves from waiting to paid once, in the transaction that pays the player (hand-pay-approval.ts).
 */
import type { Queryable } from '../../db/pool.js';

export interface HandPayRow {
  id: number;
  command_id: string;
  machine_id: number;
  session_id: string;
  player_id: number;
  amount_cents: number;
  needs_second: boolean;
  status: 'waiting' | 'paid';
  requested_at: Date;
  first_signer: string | null;
  first_signed_at: Date | null;
  second_signer: string | null;
  paid_at: Date | null;
}

/** Written once per hand pay command (a booking repeated after a crash finds it there). */
export async function insertHandPayRequest(
  tx: Queryable,
  request: { commandId: string; machineId: number; sessionId: string; playerId: number; amountCents: number; needsSecond: boolean },
) {
  await tx.query(
    `INSERT INTO hand_pays (command_id, machine_id, session_id, player_id, amount_cents, needs_second)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (command_id) DO NOTHING`,
    [request.commandId, request.machineId, request.sessionId, request.playerId, request.amountCents, request.needsSecond],
  );
}

export async function lockHandPay(tx: Queryable, id: number): Promise<HandPayRow | undefined> {
  const { rows } = await tx.query<HandPayRow>('SELECT * FROM hand_pays WHERE id = $1 FOR UPDATE', [id]);
  return rows[0] && { ...rows[0], amount_cents: Number(rows[0].amount_cents) };
}

export async function signFirst(tx: Queryable, id: number, signer: string) {
  await tx.query("UPDATE hand_pays SET first_signer = $2, first_signed_at = now() WHERE id = $1 AND status = 'waiting' AND first_signer IS NULL", [id, signer]);
}

/** waiting → paid; false when it was not waiting (paid before). */
export async function markHandPayPaid(tx: Queryable, id: number, signers: { first: string; second: string | null }): Promise<boolean> {
  const { rowCount } = await tx.query(
    `UPDATE hand_pays SET status = 'paid', paid_at = now(), first_signer = $2, first_signed_at = coalesce(first_signed_at, now()), second_signer = $3
      WHERE id = $1 AND status = 'waiting'`,
    [id, signers.first, signers.second],
  );
  return Boolean(rowCount);
}

export async function listHandPays(db: Queryable, status: 'waiting' | 'paid' | undefined): Promise<(HandPayRow & { username: string; machine_name: string })[]> {
  const { rows } = await db.query<HandPayRow & { username: string; machine_name: string }>(
    `SELECT h.*, p.username, m.name AS machine_name FROM hand_pays h
       JOIN players p ON p.id = h.player_id JOIN machines m ON m.id = h.machine_id
      WHERE ($1::text IS NULL OR h.status = $1) ORDER BY h.id DESC LIMIT 200`,
    [status ?? null],
  );
  return rows.map((row) => ({ ...row, amount_cents: Number(row.amount_cents) }));
}

/** A machine's hand pay locks: one waiting for staff, or one still to be taken off the meter. */
const LOCKS_SQL = `SELECT machine_id, sum(amount) AS amount FROM (
       SELECT machine_id, amount_cents AS amount FROM hand_pays WHERE status = 'waiting'
       UNION ALL
       SELECT machine_id, amount_cents FROM machine_commands WHERE type = 'hand_pay' AND status = 'pending'
     ) locks WHERE $1::int IS NULL OR machine_id = $1 GROUP BY machine_id`;

/**
 * Machines locked by a hand pay, with the amount: one waiting for staff, or one still to be taken
 * off the meter (its `hand_pay` command, written with the winning game's record). Loaded at start.
 */
export async function waitingHandPayMachines(db: Queryable): Promise<Map<number, number>> {
  const { rows } = await db.query<{ machine_id: number; amount: string }>(LOCKS_SQL, [null]);
  return new Map(rows.map((row) => [row.machine_id, Number(row.amount)]));
}

/** The amount a hand pay locks one machine with, as committed now; undefined when none does. */
export async function handPayLockOf(db: Queryable, machineId: number): Promise<number | undefined> {
  const { rows } = await db.query<{ amount: string }>(LOCKS_SQL, [machineId]);
  return rows[0] ? Number(rows[0].amount) : undefined;
}
