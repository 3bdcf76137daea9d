/**
 * The `slot_sessions` SQL, and the only file that writes the table: open, resume, disconnect and
 * close a session row, and the counters and promotion state the money and game records keep on it
 * (each inside the caller's transaction where it says `tx`).
 */
import { randomUUID } from 'node:crypto';
import { Code } from '@reel/protocol';
import type { Queryable, Tx } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import { walletBalance } from '../ledger/ledger.js';
import { takeQueuedSeat } from '../queue/queue-repository.js';
import type { SessionRow } from './live-session.js';

type OpenRow = SessionRow & { machine_name: string };

/** SQL: the credits a session has on its machine according to the records. */
export const EXPECTED_CREDITS_SQL = 'cash_in_cents - cash_out_cents + win_cents - bet_cents';

/** SQL: the status after a payout (a cash out, or a settlement from the records). */
const STATUS_AFTER_PAYOUT = `status = CASE WHEN closing THEN 'closed' WHEN status = 'cashing_out' THEN
                       CASE WHEN disconnected_at IS NULL THEN 'active' ELSE 'disconnected' END ELSE status END,
            ended_at = CASE WHEN closing THEN now() ELSE ended_at END`;

/** After a (re)start every open session waits in grace (its player is gone) or finishes its cash out. */
export async function reopenAfterRestart(db: Queryable, shard?: MachineShard): Promise<OpenRow[]> {
  const { rows } = await db.query<OpenRow>(
    `UPDATE slot_sessions s SET status = CASE WHEN s.status = 'cashing_out' THEN 'cashing_out' ELSE 'disconnected' END,
            disconnected_at = coalesce(s.disconnected_at, now())
       FROM machines m WHERE m.id = s.machine_id AND s.status <> 'closed'
        AND ($1::int IS NULL OR s.machine_id % $2::int = $1::int)
      RETURNING s.*, m.name AS machine_name`,
    [shard?.index ?? null, shard?.count ?? 1],
  );
  return rows;
}

/** One shard of the machines (a cluster server owns some, docs/scale.md): machine id mod count = index. */
export interface MachineShard {
  index: number;
  count: number;
}

/**
 * Resumes the player's open session on the machine or opens a new one, under the machine's and the
 * sessions' row locks: one session per machine and per player.
 */
export async function openSession(tx: Tx, input: { playerId: number; machineId: number; cabinetReady: boolean; allowZeroBalance: boolean }) {
  const { playerId, machineId } = input;
  const machine = await tx.query<{ id: number; name: string; enabled: boolean }>(`SELECT id, name, (enabled AND out_of_service IS NULL AND emergency_stop IS NULL
            AND NOT EXISTS (SELECT 1 FROM hand_pays h WHERE h.machine_id = machines.id AND h.status = 'waiting')) AS enabled
       FROM machines WHERE id = $1 FOR UPDATE`, [machineId]);
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
    return { session: rows[0]!, resumed: true, machineName: m.name, seated: false };
  }
  if (!m.enabled || !input.cabinetReady) throw new AppError(Code.MachineNotAvailable, 409);
  if (!input.allowZeroBalance && (await walletBalance(tx, playerId)).balance === 0) throw new AppError(Code.InsufficientBalance, 409);
  // A machine with a queue is its line's: only the first in line, during their ready check, opens a session on it.
  const seat = await takeQueuedSeat(tx, machineId, playerId);
  if (seat === 'held') throw new AppError(Code.MachineHeldForQueue, 409);
  const { rows } = await tx.query<SessionRow>(
    "INSERT INTO slot_sessions (id, player_id, machine_id, status) VALUES ($1, $2, $3, 'active') RETURNING *",
    [randomUUID(), playerId, machineId],
  );
  return { session: rows[0]!, resumed: false, machineName: m.name, seated: seat === 'seated' };
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

/** A cash in is on its way to the machine. */
export async function addCashIn(tx: Tx, sessionId: string, amountCents: number) {
  await tx.query('UPDATE slot_sessions SET cash_in_cents = cash_in_cents + $2, last_activity_at = now() WHERE id = $1', [sessionId, amountCents]);
}

/** The machine refused a cash in: it never reached the machine. */
export async function removeCashIn(tx: Tx, sessionId: string, amountCents: number | null) {
  await tx.query('UPDATE slot_sessions SET cash_in_cents = cash_in_cents - $2 WHERE id = $1', [sessionId, amountCents]);
}

/** A cash out (or hand pay) paid `paidCents`; a closing session closes. Answers whether it was closing. */
export async function addCashOut(tx: Tx, sessionId: string, paidCents: number): Promise<boolean> {
  const { rows } = await tx.query<{ closing: boolean }>(
    `UPDATE slot_sessions SET cash_out_cents = cash_out_cents + $2,
            ${STATUS_AFTER_PAYOUT}
      WHERE id = $1 RETURNING closing`,
    [sessionId, paidCents],
  );
  return rows[0]!.closing;
}

/** The session was settled from the records (`record` says why and what was paid): it is held. */
export async function holdSettledSession(tx: Tx, sessionId: string, paidCents: number, record: object) {
  await tx.query(
    `UPDATE slot_sessions SET cash_out_cents = cash_out_cents + $2, malfunction = $3,
            ${STATUS_AFTER_PAYOUT},
            close_reason = CASE WHEN closing THEN coalesce(close_reason, 'machine malfunction') ELSE close_reason END
      WHERE id = $1`,
    [sessionId, paidCents, JSON.stringify(record)],
  );
}

/**
 * SET clauses for the game-cycle update: the bet (parameter `bet`, e.g. `$5`) counts towards the
 * promotion money's wagering requirement (promotion-wagering.ts); the game that meets it turns the
 * locked promotion money into wagered money. Every right-hand side sees the row as it was before.
 */
function wageringSetSql(bet: string): string {
  const met = `promo_wager_left_cents > 0 AND promo_wager_left_cents <= ${bet}`;
  return `promo_wager_left_cents = greatest(0, promo_wager_left_cents - ${bet}),
          promo_wagered_cents = promo_wagered_cents + CASE WHEN ${met} THEN promo_bonus_cents + promo_discount_cents ELSE 0 END,
          promo_bonus_cents = CASE WHEN ${met} THEN 0 ELSE promo_bonus_cents END,
          promo_discount_cents = CASE WHEN ${met} THEN 0 ELSE promo_discount_cents END`;
}

/** Holds the session row until the transaction ends (money on the machine moves one at a time). */
export async function lockSession(tx: Tx, sessionId: string) {
  await tx.query('SELECT 1 FROM slot_sessions WHERE id = $1 FOR UPDATE', [sessionId]);
}

/** A recorded game counts on its session: spins, bets, wins and the wagering progress. */
export async function addCycle(tx: Tx, sessionId: string, cycle: { freeSpin: boolean; betCents: number; winCents: number }) {
  await tx.query(
    `UPDATE slot_sessions SET spins = spins + $2, free_spins = free_spins + $3, bet_cents = bet_cents + $4, win_cents = win_cents + $5,
            last_activity_at = now(), ${wageringSetSql('$4')}
      WHERE id = $1`,
    [sessionId, cycle.freeSpin ? 0 : 1, cycle.freeSpin ? 1 : 0, cycle.betCents, cycle.winCents],
  );
}

/** Promotion money (bonus, discount) came onto the machine with a wagering requirement. */
export async function addPromotionMoney(tx: Queryable, sessionId: string, bonusCents: number, discountCents: number, requiredCents: number) {
  await tx.query(
    `UPDATE slot_sessions SET promo_bonus_cents = promo_bonus_cents + $2, promo_discount_cents = promo_discount_cents + $3,
            promo_wager_left_cents = promo_wager_left_cents + $4 WHERE id = $1`,
    [sessionId, bonusCents, discountCents, requiredCents],
  );
}

/** Promotion money that counts as cash on the machine at once (no requirement configured). */
export async function addWageredPromotionMoney(tx: Queryable, sessionId: string, cents: number) {
  await tx.query('UPDATE slot_sessions SET promo_wagered_cents = promo_wagered_cents + $2 WHERE id = $1', [sessionId, cents]);
}

/** Promotion money that left the machine again (a refused cash in), with its requirement. */
export async function removePromotionMoney(tx: Queryable, sessionId: string, bonusCents: number, discountCents: number, requiredCents: number) {
  await tx.query(
    `UPDATE slot_sessions SET promo_bonus_cents = greatest(0, promo_bonus_cents - $2), promo_discount_cents = greatest(0, promo_discount_cents - $3),
            promo_wager_left_cents = greatest(0, promo_wager_left_cents - $4) WHERE id = $1`,
    [sessionId, bonusCents, discountCents, requiredCents],
  );
}

/** After a payout the session's promotion state starts from zero. */
export async function clearPromotionMoney(tx: Queryable, sessionId: string) {
  await tx.query(
    'UPDATE slot_sessions SET promo_bonus_cents = 0, promo_discount_cents = 0, promo_wager_left_cents = 0, promo_wagered_cents = 0 WHERE id = $1',
    [sessionId],
  );
}
