/**
 * The cabinet's meters against the server's own game records (docs/sessions.md, "Meters and
 * malfunctions").
 *
 * The credits a session has on its machine follow from the records: cash in − cash out + wins − bets
 * of its recorded game cycles. After every (re)connect of a cabinet the server stops autoplay, waits
 * for the machine to be idle, records any games it missed from the cabinet's memory, re-sends the
 * money commands still pending, and compares the cabinet's credit meter (and memory id) with the
 * records. A cabinet whose meters do not follow (a cleared memory, a swapped machine) is a
 * malfunction (malfunctions.ts): its session is held and settled from the records
 * (records-settlement.ts), never booked as a loss.
 *
 * The check uses the rooms below it and calls none above: the machine's command queue and pending
 * commands (command-outbox.ts), the game records (game-cycles.ts, cycle-order.ts) and the verdict
 * (malfunctions.ts).
 */
import { isBusyCabinetState, type MemoryRecall } from '@reel/protocol';
import type { Db, Queryable } from '../../db/pool.js';
import type { CommandOutbox } from './command-outbox.js';
import type { CycleOrder } from './cycle-order.js';
import type { GameCycles } from './game-cycles.js';
import { setMemoryId } from './machine-state.js';
import type { MalfunctionDetail } from './malfunction-log.js';
import type { Malfunctions } from './malfunctions.js';
import { EXPECTED_CREDITS_SQL } from './session-repository.js';
import type { CabinetPort } from './types.js';

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

interface MeterHost {
  db: Db;
  cabinets: CabinetPort;
  /** The machine's money queue (one money command at a time per machine) and its pending commands. */
  commands: Pick<CommandOutbox, 'onMachine' | 'runPending'>;
  /** Records a reported game unless already recorded; resolves once it is. */
  cycles: Pick<GameCycles, 'enqueue'>;
  /** Resolves once every game the machine reported is recorded; rejects while one is missing. */
  order: Pick<CycleOrder, 'settled'>;
  /** The verdict when the meters do not follow from the records; called inside the money queue. */
  malfunctions: Pick<Malfunctions, 'onMeterFault'>;
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
    return this.host.commands.onMachine(machineId, async () => {
      if (!cabinets.isConnected(machineId)) return 'offline';
      // The cabinet sent its outbox of unacknowledged games before this recall's answer: they are
      // recorded first (and the last games, for a cabinet without an outbox), so that the pending
      // commands below are booked against complete records. A game the database failed to store
      // makes this check wait (busy) until the cabinet has sent it again.
      let recall = await this.recall(machineId);
      for (const game of recall.games) await this.host.cycles.enqueue(machineId, game);
      await this.host.order.settled(machineId);
      await this.host.commands.runPending(machineId);
      recall = await this.recall(machineId);
      if (isBusyCabinetState(recall.state)) return 'busy';
      for (const game of recall.games) await this.host.cycles.enqueue(machineId, game);
      await this.host.order.settled(machineId);
      const expected = await expectedCredits(this.host.db, machineId);
      const stored = await this.host.db.query<{ memory_id: string | null }>('SELECT memory_id FROM machines WHERE id = $1', [machineId]);
      const detail = meterDisagreement(expected, recall, stored.rows[0]?.memory_id ?? null);
      if (detail) {
        await this.host.malfunctions.onMeterFault(machineId, detail, recall);
        return 'fault';
      }
      await setMemoryId(this.host.db, machineId, recall.memoryId);
      return 'ok';
    });
  }
}
