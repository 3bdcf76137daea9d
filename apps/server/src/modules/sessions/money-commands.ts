/**
 * The database side of what moves money on a machine, each inside the caller's transaction
 * (docs/money.md): the cash in with its `credit_in` outbox row, the refund of a refused credit, the
 * booking of what a cash out paid, and the record of a game cycle with its session counters. The
 * rows themselves are written by their tables' files (session-repository.ts, command-repository.ts);
 * command-outbox.ts runs these when it writes a command and when it books the cabinet's answer.
 */
import { ActionCode, Code, formatCents, type GameCycle, type WalletPart } from '@reel/protocol';
import type { Tx } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import type { MoveFn } from '../ledger/ledger-service.js';
import { OperationKind } from '../ledger/ledger.js';
import { handPayLockOf, insertHandPayRequest } from '../hand-pays/hand-pay-repository.js';
import { insertCreditIn, lockPendingHandPays, markPaid, markRefunded, type OutboxCommand } from './command-repository.js';
import { PROMOTION_COLUMNS, lockPromotionMoney, payOut, unlockPromotionMoney, type PromotionState } from './promotion-wagering.js';
import { settleFromRecords } from './records-settlement.js';
import { addCashIn, addCashOut, addCycle, EXPECTED_CREDITS_SQL, lockSession, removeCashIn } from './session-repository.js';

interface CashInRequest {
  playerId: number;
  machineId: number;
  sessionId: string;
  amountCents: number;
  idempotencyKey: string;
  /** MAX_ALL_IN_LIMIT */
  limitCents: number;
  /** The player's own limits (protection), checked here so the check and the move commit together. */
  checkLimits: (tx: Tx) => Promise<void>;
  /** The cabinet's last reported credit meter. */
  meterCents: number;
  multiplier: number;
}

/**
 * Cash In (3): locks the session row, checks the limit against the records (which count cash ins
 * still on their way to the machine) or the meter, whichever is higher, moves wallet → machine,
 * checks the player's own limits (in this transaction: a crash cannot separate check and move),
 * and writes the `credit_in` command. A retry of an earlier request answers its first command id,
 * whatever the limit says now. Returns the command id.
 */
export async function writeCashIn(tx: Tx, move: MoveFn, request: CashInRequest): Promise<string> {
  const { playerId, machineId, sessionId, amountCents } = request;
  const session = await tx.query<{ status: string; closing: boolean; malfunction: { paidCents: number } | null; credits: number }>(
    `SELECT status, closing, malfunction, ${EXPECTED_CREDITS_SQL} AS credits FROM slot_sessions WHERE id = $1 FOR UPDATE`,
    [sessionId],
  );
  const earlier = await tx.query('SELECT 1 FROM ledger_operations WHERE player_id = $1 AND idempotency_key = $2', [playerId, request.idempotencyKey]);
  if (!earlier.rowCount) {
    const row = session.rows[0];
    if (row?.malfunction) throw new AppError(Code.MachineMalfunction, 409, { amount: formatCents(row.malfunction.paidCents) });
    if (!row || row.status === 'closed' || row.status === 'cashing_out' || row.closing) throw new AppError(Code.SessionTerminated, 409);
    // The game that locked the machine may have been recorded after the caller's check (session-floor.ts):
    // its record takes this row's lock first (writeCycle), so what committed before this point is here.
    const handPayCents = await handPayLockOf(tx, machineId);
    if (handPayCents !== undefined) throw new AppError(Code.HandPayWaiting, 409, { amount: formatCents(handPayCents) });
    const onMachine = Math.max(Number(row.credits), request.meterCents);
    if (onMachine + amountCents > request.limitCents) throw new AppError(Code.CashInLimit, 409, { limit: formatCents(request.limitCents) });
    await request.checkLimits(tx);
  }
  const moved = await move({
    kind: OperationKind.CashIn,
    actionCode: ActionCode.CashIn,
    playerId,
    idempotencyKey: request.idempotencyKey,
    from: { kind: 'wallet', playerId },
    to: { kind: 'machine', machineId },
    amountCents,
    machineId,
    sessionId,
  });
  const commandId = `ci-${moved.operationId}`;
  if (!moved.replayed) {
    await addCashIn(tx, sessionId, amountCents);
    await lockPromotionMoney(tx, sessionId, moved.drawn, request.multiplier);
    await insertCreditIn(tx, { commandId, machineId, sessionId, playerId, amountCents });
  }
  return commandId;
}

/** A refused `credit_in`: the money goes back to the wallet parts the cash in took it from. */
export async function refundCreditIn(tx: Tx, move: MoveFn, command: OutboxCommand, tag: string, multiplier: number) {
  if (!(await markRefunded(tx, command.command_id))) return;
  const operationId = Number(command.command_id.replace(/^ci-/, ''));
  const parts = await tx.query<{ part: WalletPart; amount: number }>(
    `SELECT a.part, -sum(e.amount_cents)::bigint AS amount FROM ledger_entries e JOIN accounts a ON a.id = e.account_id
      WHERE e.operation_id = $1 AND a.kind = 'wallet' GROUP BY a.part ORDER BY a.part`,
    [operationId],
  );
  const returned: Partial<Record<WalletPart, number>> = {};
  for (const { part, amount } of parts.rows.length ? parts.rows : [{ part: 'cash' as const, amount: command.amount_cents! }]) {
    if (amount <= 0) continue;
    returned[part] = amount;
    await move({
      kind: OperationKind.CashOut,
      actionCode: ActionCode.CashOut,
      playerId: command.player_id,
      idempotencyKey: part === 'cash' ? `refund:${command.command_id}` : `refund:${command.command_id}:${part}`,
      from: { kind: 'machine', machineId: command.machine_id },
      to: { kind: 'wallet', playerId: command.player_id, part },
      amountCents: amount,
      machineId: command.machine_id,
      sessionId: command.session_id,
      tag,
    });
  }
  await removeCashIn(tx, command.session_id, command.amount_cents);
  await unlockPromotionMoney(tx, command.session_id, returned, multiplier);
}

interface CashOutBooking {
  closed: boolean;
  paidCents: number;
  /** The cabinet paid something else than the records: settled from the records, session held. */
  malfunction: boolean;
}

/**
 * Books a cash out (or hand pay) that took `paidCents` off the meter. The machine account is
 * squared with the house by the recorded game results; when the cabinet paid something else than
 * the records give, the session is settled from the records instead (`settleFromRecords`). Returns
 * null when the command was booked before.
 */
export async function writeCashOut(
  tx: Tx,
  move: MoveFn,
  command: OutboxCommand,
  paidCents: number,
  multiplier: number,
  /** HAND_PAY_SECOND_SIGNER: a hand pay at or above it needs two staff signatures. */
  secondSignerCents = Number.POSITIVE_INFINITY,
): Promise<CashOutBooking | null> {
  if (!(await markPaid(tx, command.command_id, paidCents))) return null;
  const session = await tx.query<PromotionState & { credits: number; malfunction: unknown }>(
    `SELECT ${EXPECTED_CREDITS_SQL} AS credits, malfunction, ${PROMOTION_COLUMNS} FROM slot_sessions WHERE id = $1 FOR UPDATE`,
    [command.session_id],
  );
  const row = session.rows[0]!;
  const expectedCents = Math.max(0, Number(row.credits));
  if (paidCents !== expectedCents && row.malfunction === null) {
    const settlement = await settleFromRecords(tx, move, {
      sessionId: command.session_id,
      machineId: command.machine_id,
      detail: { reason: 'cash_out', expectedCents, reportedCents: paidCents },
      multiplier,
      payLarger: true,
    });
    return settlement ? { closed: settlement.closed, paidCents: settlement.paidCents, malfunction: true } : null;
  }
  const account = await tx.query<{ balance: number }>("SELECT balance FROM accounts WHERE kind = 'machine' AND machine_id = $1 FOR UPDATE", [command.machine_id]);
  const onAccount = account.rows[0]?.balance ?? 0;
  // Square the machine account with the house by what the records say was won or lost (here the
  // cabinet paid exactly what the records give).
  const resultCents = expectedCents - onAccount;
  if (resultCents !== 0) {
    const houseWon = resultCents < 0;
    // Between house and machine only: not a movement of the player's money, so not in their history.
    await move({
      kind: OperationKind.GameResult,
      from: houseWon ? { kind: 'machine', machineId: command.machine_id } : { kind: 'house' },
      to: houseWon ? { kind: 'house' } : { kind: 'machine', machineId: command.machine_id },
      amountCents: Math.abs(resultCents),
      machineId: command.machine_id,
      sessionId: command.session_id,
      tag: houseWon ? 'session loss (recorded games)' : 'session win (recorded games)',
    });
  }
  // The win of a hand pay is held; a cash out's booking also takes over the session's hand pays
  // written after it was sent (their games were played before the cabinet ran it, so the meter it
  // paid holds their wins): each is marked done without the cabinet running it.
  const holds = command.type === 'hand_pay' ? [command] : await lockPendingHandPays(tx, command.session_id);
  let handPayCents = 0;
  for (const hold of holds) {
    const cents = Math.min(hold.amount_cents ?? 0, paidCents - handPayCents);
    if (hold !== command) await markPaid(tx, hold.command_id, 0);
    if (cents <= 0) continue;
    handPayCents += cents;
    // The win waits in the house's keeping until staff approve it (hand-pays/hand-pay-approval.ts
    // pays it to the wallet, once, in the approval's transaction).
    await move({
      kind: OperationKind.HandPayHold,
      from: { kind: 'machine', machineId: command.machine_id },
      to: { kind: 'house' },
      amountCents: cents,
      machineId: command.machine_id,
      sessionId: command.session_id,
      tag: 'win at or above the hand pay limit, held for staff approval',
    });
    await insertHandPayRequest(tx, {
      commandId: hold.command_id,
      machineId: command.machine_id,
      sessionId: command.session_id,
      playerId: command.player_id,
      amountCents: cents,
      needsSecond: cents >= secondSignerCents,
    });
  }
  await payOut(tx, move, {
    playerId: command.player_id,
    machineId: command.machine_id,
    sessionId: command.session_id,
    key: command.command_id,
    cents: paidCents - handPayCents,
    state: row,
    multiplier,
    cash: { kind: OperationKind.CashOut, actionCode: ActionCode.CashOut },
  });
  const closed = await addCashOut(tx, command.session_id, paidCents);
  return { closed, paidCents, malfunction: false };
}

/**
 * Records a game cycle once (the cabinet re-sends its last games after a reconnect: the game id and
 * start time identify it) with its session's counters and wagering progress. Returns the machine's
 * hand pay limit and brand for a new cycle, null for one recorded before.
 */
export async function writeCycle(tx: Tx, machineId: number, sessionId: string | null, cycle: GameCycle) {
  // The session row's lock first: a cash in (writeCashIn) is booked wholly before this game or sees
  // the hand pay it may write; the record's time (its transaction's) is then the lock's start.
  if (sessionId) await lockSession(tx, sessionId);
  const { rows } = await tx.query<{ handpay_limit_cents: number; brand_id: number }>('SELECT handpay_limit_cents, brand_id FROM machines WHERE id = $1', [machineId]);
  if (!rows[0]) return null;
  const inserted = await tx.query(
    `INSERT INTO game_cycles (session_id, machine_id, bet_cents, win_cents, symbols, credits_before, credits_after, free_spin, jackpot, game_id, started_ms, command_id, line_wins)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     ON CONFLICT (machine_id, game_id, started_ms) WHERE game_id IS NOT NULL DO NOTHING`,
    [sessionId, machineId, cycle.betCents, cycle.winCents, JSON.stringify(cycle.symbols), cycle.creditsBeforeCents, cycle.creditsAfterCents, cycle.freeSpin, cycle.jackpotHit, cycle.gameId, Math.round(cycle.startedAtMs), cycle.commandId ?? null, JSON.stringify(cycle.lineWins)],
  );
  if (!inserted.rowCount) return null;
  if (sessionId) await addCycle(tx, sessionId, cycle);
  return rows[0];
}
