/**
 * The queue for a busy machine (issue 29; docs/sessions.md "The queue"). Players join the line of a
 * Playing or Waiting machine; when it frees, the first in line gets a ready check (the seat is held
 * for them until its deadline); joining the machine uses the seat up (sessions/session-repository.ts
 * asks `takeQueuedSeat`), no answer passes the turn on. Everything lives in `machine_queue`: any
 * server may add or remove entries, and the clock (`tick`: deadlines, handing the seat) runs where
 * the sessions run (the session manager starts and stops it), resuming from the table after a
 * restart or a change of owner. The table's constraints keep one entry per player and one holder per
 * machine, and an expired turn is passed by the one statement that deletes it.
 */
import { Code, MachineStatus, type QueueEndReason, type QueueEntry } from '@reel/protocol';
import { withTransaction, type Db } from '../../db/pool.js';
import { Topic, type Bus } from '../../lib/bus.js';
import { AppError } from '../../lib/errors.js';
import { listMachines } from '../machines/lobby.js';
import type { PlayerBreaks } from '../protection/player-breaks.js';
import { publishQueueChanged, pushEntry, pushLine, toEntry } from './queue-pushes.js';
import {
  deleteEntry,
  entryOf,
  entryRow,
  expireReadyChecks,
  holdSeatForFirst,
  insertEntry,
  lineOf,
  linesWithoutHolder,
} from './queue-repository.js';

interface QueueTimers {
  /** How long the first in line has to accept (the 15 s). */
  readyCheckMs: number;
  /** How often the clock looks at deadlines and free machines (a freed machine is also nudged at once). */
  tickMs: number;
  /** The wait estimate's session length for a machine with no closed session yet. */
  defaultSessionS: number;
}

const DEFAULT_QUEUE_TIMERS: QueueTimers = { readyCheckMs: 15_000, tickMs: 1_000, defaultSessionS: 300 };

interface QueueDeps {
  db: Db;
  bus: Bus;
  breaks: Pick<PlayerBreaks, 'refusal'>;
  timers?: Partial<QueueTimers>;
  warn?: (error: unknown, where: string) => void;
}

/** Statuses of a machine someone is on: only those are queued for. */
const BUSY: readonly string[] = [MachineStatus.Playing, MachineStatus.Waiting];

export class MachineQueue {
  readonly timers: QueueTimers;
  private clock: NodeJS.Timeout | undefined;
  /** Session managers running the clock (one per owned shard in a cluster). */
  private clockUsers = 0;
  private ticking: Promise<void> | null = null;
  private readonly offs: (() => void)[] = [];

  constructor(private readonly deps: QueueDeps) {
    this.timers = { ...DEFAULT_QUEUE_TIMERS, ...deps.timers };
    // Signing out, a break or self-exclusion, a ban: every one revokes the player's tokens.
    this.offs.push(
      deps.bus.subscribe(Topic.tokenRevoked, (message) => {
        const { playerId } = message as { playerId?: number };
        if (typeof playerId === 'number')
          void this.leave(playerId, 'removed').catch((e) => this.warn(e, 'queue removal'));
      }),
    );
  }

  private warn(error: unknown, where: string) {
    (this.deps.warn ?? ((e, w) => console.warn(`[queue] ${w}: ${(e as Error).message}`)))(error, where);
  }

  // --- what the player asks -------------------------------------------------------------------

  /** Joins the machine's line (the same machine again answers the entry as it is). */
  async join(playerId: number, machineId: number): Promise<QueueEntry> {
    const refusal = await this.deps.breaks.refusal(playerId);
    if (refusal) throw refusal;
    const joined = await withTransaction(this.deps.db, async (tx) => {
      // The machine's row lock: joins, seat hand-overs and session opens on it take turns.
      await tx.query('SELECT 1 FROM machines WHERE id = $1 FOR UPDATE', [machineId]);
      const [machine] = await listMachines(tx, { hotLimitCents: Number.MAX_SAFE_INTEGER, machineId });
      if (!machine) throw new AppError(Code.NotFound, 404);
      const playing = await tx.query<{ name: string }>(
        `SELECT m.name FROM slot_sessions s JOIN machines m ON m.id = s.machine_id WHERE s.player_id = $1 AND s.status <> 'closed'`,
        [playerId],
      );
      if (playing.rows[0]) throw new AppError(Code.QueueWhilePlaying, 409, { machine: playing.rows[0].name });
      const mine = await entryRow(tx, playerId);
      if (mine) {
        if (mine.machine_id === machineId) return false;
        throw new AppError(Code.QueueElsewhere, 409, { machine: mine.machine_name });
      }
      if (machine.status === MachineStatus.NotAvailable) throw new AppError(Code.QueueNotQueueable, 409);
      if (!BUSY.includes(machine.status) && !machine.queue) throw new AppError(Code.QueueMachineFree, 409);
      await insertEntry(tx, machineId, playerId);
      return true;
    });
    if (joined) await this.changed(machineId);
    // A line behind a machine that freed meanwhile gets its ready check now.
    await this.promote(machineId);
    const entry = await this.entry(playerId);
    if (!entry) throw new AppError(Code.NotInQueue, 404);
    return entry;
  }

  /** The player leaves the line (`left`), or is taken out of it (`removed`: signed out, on a break). */
  async leave(playerId: number, ended: QueueEndReason = 'left'): Promise<boolean> {
    const machineId = await deleteEntry(this.deps.db, playerId);
    if (machineId === undefined) return false;
    pushEntry(this.deps.bus, playerId, null, ended);
    await this.changed(machineId);
    await this.promote(machineId);
    return true;
  }

  async entry(playerId: number): Promise<QueueEntry | null> {
    const row = await entryOf(this.deps.db, playerId, this.timers.defaultSessionS);
    return row ? toEntry(row) : null;
  }

  /** A (re)connected player hears their entry again, with the ready check's time left now. */
  async resend(playerId: number) {
    const entry = await this.entry(playerId);
    if (entry) pushEntry(this.deps.bus, playerId, entry);
  }

  // --- what the sessions tell -----------------------------------------------------------------

  /** The player joined the machine on their held seat (the join's transaction used the entry up). */
  async seated(machineId: number, playerId: number) {
    pushEntry(this.deps.bus, playerId, null, 'seated');
    await this.changed(machineId);
  }

  /** A session on the machine closed: its first in line need not wait for the clock. */
  machineFreed(machineId: number) {
    void this.promote(machineId).catch((e) => this.warn(e, 'queue promote'));
  }

  // --- the clock (run by the session owner) -----------------------------------------------------

  startClock() {
    // One clock per server, however many session managers (one per owned shard) started it.
    this.clockUsers += 1;
    if (this.clock) return;
    this.clock = setInterval(
      () => void this.tick().catch((e) => this.warn(e, 'queue tick')),
      this.timers.tickMs,
    );
    this.clock.unref();
    void this.tick().catch((e) => this.warn(e, 'queue tick'));
  }

  async stopClock() {
    this.clockUsers = Math.max(0, this.clockUsers - 1);
    if (this.clockUsers > 0) return;
    clearInterval(this.clock);
    this.clock = undefined;
    await this.ticking;
  }

  /** One pass: expired ready checks pass the turn on, free machines get their first in line a seat. */
  tick(): Promise<void> {
    this.ticking ??= this.runTick().finally(() => (this.ticking = null));
    return this.ticking;
  }

  private async runTick() {
    for (const expired of await expireReadyChecks(this.deps.db)) {
      pushEntry(this.deps.bus, expired.player_id, null, 'passed');
      await this.changed(expired.machine_id);
    }
    for (const machineId of await linesWithoutHolder(this.deps.db)) await this.promote(machineId);
  }

  /**
   * When the machine is free, its first in line gets the seat for the ready check. A player who
   * went on a break meanwhile is taken out and the next is asked.
   */
  private async promote(machineId: number): Promise<void> {
    const holder = await withTransaction(this.deps.db, async (tx) => {
      await tx.query('SELECT 1 FROM machines WHERE id = $1 FOR UPDATE', [machineId]);
      const [machine] = await listMachines(tx, { hotLimitCents: Number.MAX_SAFE_INTEGER, machineId });
      const free =
        machine?.status === MachineStatus.Available ||
        (machine?.status === MachineStatus.Reserved && machine.reservation);
      if (!free) return undefined;
      return holdSeatForFirst(tx, machineId, this.timers.readyCheckMs);
    });
    if (holder === undefined) return;
    if (await this.deps.breaks.refusal(holder)) {
      await this.leave(holder, 'removed');
      return;
    }
    await this.changed(machineId);
  }

  /** The line hears its new places, and everyone the new length. */
  private async changed(machineId: number) {
    const line = await lineOf(this.deps.db, machineId, this.timers.defaultSessionS);
    pushLine(this.deps.bus, line);
    publishQueueChanged(this.deps.bus, { machineId, length: line.length });
  }

  close() {
    for (const off of this.offs.splice(0)) off();
    clearInterval(this.clock);
  }
}
