/**
 * The cabinet's meters against the server's own game records (docs/sessions.md, "Meters and
 * malfunctions").
 *
 * The credits a session has on its machine follow from the records: cash in − cash out + wins − bets
 * of its recorded game cycles. After every (re)connect of a cabinet the server stops autoplay, waits
 * for the machine to be idle, records any games it missed from the cabinet's memory, re-sends the
 * money commands still pending, and compares the cabinet's credit meter (and memory id) with the
 * records. A cabinet whose meters do not follow (a cleared memory, a swapped machine) is a
 * malfunction: its session is held and settled from the records (`settleFromRecords`), never booked
 * as a loss. The same settlement is used when a cash out pays something else than the records say.
 */
import { ActionCode, isBusyCabinetState, type GameCycle, type MemoryRecall } from '@reel/protocol';
import type { Db, Queryable, Tx } from '../../db/pool.js';
import type { MoveFn } from '../ledger/ledger-service.js';
import { OperationKind } from '../ledger/ledger.js';
import { PROMOTION_COLUMNS, payOut, type PayoutSplit, type PromotionState } from './promotion-wagering.js';
import type { CabinetPort } from './types.js';
import { logMalfunction, type MalfunctionDetail } from './malfunction-log.js';

/** SQL: the credits a session has on its machine according to the records. */
export const EXPECTED_CREDITS_SQL = 'cash_in_cents - cash_out_cents + win_cents - bet_cents';


interface ExpectedCredits {
  session: { id: string; playerId: number; held: boolean } | null;
  credits: number;
}

/** What the records say is on the machine now: its open session's credits, or nothing. */
async function expectedCredits(db: Queryable, machineId: number): Promise<ExpectedCredits> {
  const { rows } = await db.query<{ id: string; player_id: number; credits: number; malfunction: unknown }>(
    `SELECT id, player_id, ${EXPECTED_CREDITS_SQL} AS credits, malfunction FROM slot_sessions WHERE machine_id = $1 AND status <> 'closed'`,
    [machineId],
  );
  const row = rows[0];
  if (!row) return { session: null, credits: 0 };
  const held = row.malfunction !== null;
  // A held session was settled: whatever it had on the machine is paid.
  return { session: { id: row.id, playerId: row.player_id, held }, credits: held ? 0 : Math.max(0, Number(row.credits)) };
}

/** Null when the cabinet's memory follows from the records. */
function meterDisagreement(expected: ExpectedCredits, recall: MemoryRecall, storedMemoryId: string | null): MalfunctionDetail | null {
  // A game in progress has taken its bet and not paid yet; the records count neither.
  const reportedCents = recall.meters.creditsCents + (recall.incompleteGame?.betCents ?? 0);
  const base = { expectedCents: expected.credits, reportedCents, memoryId: recall.memoryId, previousMemoryId: storedMemoryId };
  if (reportedCents !== expected.credits) return { reason: 'meters', ...base };
  if (expected.session && !expected.session.held && storedMemoryId && storedMemoryId !== recall.memoryId) return { reason: 'memory', ...base };
  return null;
}

const REASON_TEXT: Record<MalfunctionDetail['reason'], string> = {
  meters: 'the credit meter does not follow from the recorded games',
  memory: 'the cabinet reported another memory (cleared or swapped)',
  cash_out: 'the cash out paid another amount than the recorded games',
};

interface SettleRequest {
  sessionId: string;
  machineId: number;
  detail: MalfunctionDetail;
  multiplier: number;
  /** The cabinet's own count is trusted too (same memory): the player gets the larger of the two. */
  payLarger: boolean;
  /** The cabinet's last games (its recall), kept with the malfunction for the operator. */
  cabinetGames?: readonly GameCycle[];
}

interface Settlement {
  playerId: number;
  paidCents: number;
  closed: boolean;
  split: PayoutSplit;
}

/**
 * Settles a session from the server's records inside the caller's transaction: the machine
 * account is squared with the house by the recorded game results, commands still pending are
 * voided, and the credits the records give (or the meter's, when larger and trusted) are paid to the
 * wallet as a Hand Pay (5) with the reason, promotion money back to its parts as usual. The session
 * is marked held (`malfunction`) and the finding logged for the operator (`malfunctions`); a second
 * call does nothing. Returns null when there is nothing to settle (closed, or settled before).
 */
export async function settleFromRecords(tx: Tx, move: MoveFn, request: SettleRequest): Promise<Settlement | null> {
  const { sessionId, machineId, detail } = request;
  const { rows } = await tx.query<PromotionState & { player_id: number; status: string; closing: boolean; credits: number; malfunction: unknown }>(
    `SELECT player_id, status, closing, malfunction, ${EXPECTED_CREDITS_SQL} AS credits, ${PROMOTION_COLUMNS}
       FROM slot_sessions WHERE id = $1 FOR UPDATE`,
    [sessionId],
  );
  const session = rows[0];
  if (!session || session.status === 'closed' || session.malfunction !== null) return null;
  const expectedCents = Math.max(0, Number(session.credits));
  const account = await tx.query<{ balance: number }>("SELECT balance FROM accounts WHERE kind = 'machine' AND machine_id = $1 FOR UPDATE", [machineId]);
  const onAccount = account.rows[0]?.balance ?? 0;
  await tx.query("UPDATE machine_commands SET status = 'void', done_at = now() WHERE session_id = $1 AND status = 'pending'", [sessionId]);

  const resultCents = expectedCents - onAccount;
  if (resultCents !== 0) {
    await move({
      kind: OperationKind.GameResult,
      from: resultCents > 0 ? { kind: 'house' } : { kind: 'machine', machineId },
      to: resultCents > 0 ? { kind: 'machine', machineId } : { kind: 'house' },
      amountCents: Math.abs(resultCents),
      machineId,
      sessionId,
      tag: 'game results recorded since the last cash out',
    });
  }
  const paidCents = request.payLarger ? Math.max(expectedCents, detail.reportedCents) : expectedCents;
  if (paidCents > expectedCents) {
    // Between the house and the machine only; the audit counts it as an explained result.
    await move({
      kind: OperationKind.MalfunctionAdjustment,
      from: { kind: 'house' },
      to: { kind: 'machine', machineId },
      amountCents: paidCents - expectedCents,
      machineId,
      sessionId,
      tag: `machine malfunction: the meter showed ${paidCents}, the records ${expectedCents}; the player gets the larger`,
    });
  }
  const split = await payOut(tx, move, {
    playerId: session.player_id,
    machineId,
    sessionId,
    key: `malfunction:${sessionId}`,
    cents: paidCents,
    state: session,
    multiplier: request.multiplier,
    cash: { kind: OperationKind.HandPay, actionCode: ActionCode.HandPay, tag: `machine malfunction (${REASON_TEXT[detail.reason]}): credits paid from the game records` },
  });
  const record = { ...detail, paidCents, at: new Date().toISOString() };
  await tx.query(
    `UPDATE slot_sessions SET cash_out_cents = cash_out_cents + $2, malfunction = $3,
            status = CASE WHEN closing THEN 'closed' WHEN status = 'cashing_out' THEN
                       CASE WHEN disconnected_at IS NULL THEN 'active' ELSE 'disconnected' END ELSE status END,
            ended_at = CASE WHEN closing THEN now() ELSE ended_at END,
            close_reason = CASE WHEN closing THEN coalesce(close_reason, 'machine malfunction') ELSE close_reason END
      WHERE id = $1`,
    [sessionId, paidCents, JSON.stringify(record)],
  );
  await tx.query('UPDATE machines SET meter_fault = $2 WHERE id = $1', [machineId, JSON.stringify({ ...record, sessionId })]);
  await logMalfunction(tx, {
    machineId,
    sessionId,
    playerId: session.player_id,
    detail,
    paidCents,
    adjustmentCents: Math.max(0, paidCents - expectedCents),
    cabinetGames: request.cabinetGames ?? [],
  });
  return { playerId: session.player_id, paidCents, closed: session.closing, split };
}


interface MeterHost {
  db: Db;
  cabinets: CabinetPort;
  /** Runs `work` in the machine's money queue (one money command at a time per machine). */
  onMachine<T>(machineId: number, work: () => Promise<T>): Promise<T>;
  /** Records a cycle unless already recorded; resolves once it is. */
  recordCycle(machineId: number, cycle: GameCycle): Promise<void>;
  /** Resolves once every cycle the machine reported is recorded; rejects while one is missing. */
  cyclesSettled(machineId: number): Promise<void>;
  /** Sends the machine's pending outbox commands again; called inside the money queue. */
  runPending(machineId: number): Promise<void>;
  /** The meters do not follow from the records. Called inside the money queue. */
  malfunction(machineId: number, detail: MalfunctionDetail, recall: MemoryRecall): Promise<void>;
  warn(error: unknown, where: string): void;
}

interface MeterGuardOptions {
  /** How long to wait for a machine in a game or bonus round to be idle before trying later. */
  idleWaitMs?: number;
  retryMs?: number;
  commandTimeoutMs?: number;
}

type Outcome = 'ok' | 'fault' | 'busy' | 'offline';

/** Verifies each cabinet's memory after it (re)connects; play on it waits for the answer. */
export class MeterGuard {
  private readonly pending = new Map<number, { promise: Promise<void>; resolve: () => void }>();
  private readonly running = new Set<number>();
  /** Machines that (re)connected while their check ran: that check may have seen the old connection. */
  private readonly again = new Set<number>();
  private readonly retries = new Map<number, NodeJS.Timeout>();
  private readonly idleWaitMs: number;
  private readonly retryMs: number;
  private readonly commandTimeoutMs: number;
  private stopped = false;

  constructor(
    private readonly host: MeterHost,
    options: MeterGuardOptions = {},
  ) {
    this.idleWaitMs = options.idleWaitMs ?? 180_000;
    this.retryMs = options.retryMs ?? 3_000;
    this.commandTimeoutMs = options.commandTimeoutMs ?? 8_000;
  }

  /** A cabinet (re)connected: nothing it reports is trusted until `verify` has compared it. */
  connected(machineId: number) {
    if (!this.pending.has(machineId)) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.pending.set(machineId, { promise, resolve });
    }
  }

  isVerified(machineId: number) {
    return !this.pending.has(machineId);
  }

  /** Resolves true once the machine is verified (or was never in doubt), false after `timeoutMs`. */
  async whenVerified(machineId: number, timeoutMs: number): Promise<boolean> {
    const entry = this.pending.get(machineId);
    if (!entry) return true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const done = await Promise.race([entry.promise.then(() => true as const), late]);
    clearTimeout(timer);
    return done;
  }

  stop() {
    this.stopped = true;
    this.again.clear();
    for (const timer of this.retries.values()) clearTimeout(timer);
    this.retries.clear();
  }

  /** Runs the verification (once at a time per machine; retried while the machine is busy). */
  async verify(machineId: number): Promise<void> {
    if (this.stopped) return;
    if (this.running.has(machineId)) {
      this.again.add(machineId);
      return;
    }
    this.running.add(machineId);
    clearTimeout(this.retries.get(machineId));
    this.retries.delete(machineId);
    let outcome: Outcome;
    try {
      outcome = await this.attempt(machineId);
    } catch (error) {
      this.host.warn(error, `meter check of machine ${machineId}`);
      outcome = 'busy';
    } finally {
      this.running.delete(machineId);
    }
    // Asked again meanwhile (a cabinet killed and back during the check): whatever this check
    // found, it may have been the old connection's, and an 'offline' answer would never retry.
    if (this.again.delete(machineId)) return this.verify(machineId);
    if (outcome === 'ok' || outcome === 'fault') {
      this.pending.get(machineId)?.resolve();
      this.pending.delete(machineId);
    } else if (outcome === 'busy' && !this.stopped && this.host.cabinets.isConnected(machineId)) {
      const timer = setTimeout(() => void this.verify(machineId), this.retryMs);
      timer.unref();
      this.retries.set(machineId, timer);
    }
  }

  private async recall(machineId: number): Promise<MemoryRecall> {
    const result = await this.host.cabinets.sendCommand(machineId, { type: 'recall' }, { timeoutMs: this.commandTimeoutMs });
    if (result.outcome !== 'ok' || !result.recall) throw new Error(`machine ${machineId} answered recall with ${result.outcome} ${result.reason ?? ''}`);
    return result.recall;
  }

  private async attempt(machineId: number): Promise<Outcome> {
    const { cabinets } = this.host;
    if (!cabinets.isConnected(machineId)) return 'offline';
    // Autoplay stops (a player who is back turns it on again); a game in progress lands.
    await cabinets.sendCommand(machineId, { type: 'stop' }, { timeoutMs: this.commandTimeoutMs }).catch(() => undefined);
    const deadline = Date.now() + this.idleWaitMs;
    while (isBusyCabinetState(cabinets.get(machineId)?.state ?? 'offline')) {
      if (!cabinets.isConnected(machineId)) return 'offline';
      if (Date.now() > deadline) return 'busy';
      await new Promise((r) => setTimeout(r, 100));
    }
    return this.host.onMachine(machineId, async () => {
      if (!cabinets.isConnected(machineId)) return 'offline';
      // The cabinet sent its outbox of unacknowledged games before this recall's answer: they are
      // recorded first (and the last games, for a cabinet without an outbox), so that the pending
      // commands below are booked against complete records. A game the database failed to store
      // makes this check wait (busy) until the cabinet has sent it again.
      let recall = await this.recall(machineId);
      for (const game of recall.games) await this.host.recordCycle(machineId, game);
      await this.host.cyclesSettled(machineId);
      await this.host.runPending(machineId);
      recall = await this.recall(machineId);
      if (isBusyCabinetState(recall.state)) return 'busy';
      for (const game of recall.games) await this.host.recordCycle(machineId, game);
      await this.host.cyclesSettled(machineId);
      const expected = await expectedCredits(this.host.db, machineId);
      const stored = await this.host.db.query<{ memory_id: string | null }>('SELECT memory_id FROM machines WHERE id = $1', [machineId]);
      const detail = meterDisagreement(expected, recall, stored.rows[0]?.memory_id ?? null);
      if (detail) {
        await this.host.malfunction(machineId, detail, recall);
        return 'fault';
      }
      await this.host.db.query('UPDATE machines SET memory_id = $2 WHERE id = $1', [machineId, recall.memoryId]);
      return 'ok';
    });
  }
}
