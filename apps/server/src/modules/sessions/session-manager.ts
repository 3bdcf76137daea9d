/**
 * The play session state machine (ARCHITECTURE.md section 4), owned by the server:
 *
 *   joining → active ⇄ disconnected (grace) → cashing out → closed
 *
 * Money moves only through the ledger, in the same transaction as a row of the `machine_commands`
 * outbox; the command is then sent to the cabinet with that row's id. The cabinet runs an id at most
 * once and answers a repeat with the first result, so a command left pending by a dropped socket or
 * a killed server is simply sent again, and nothing is paid twice.
 *
 * The machine's credit meter holds the money on the machine. Spins move credits between the meter
 * and the house inside the cabinet; the server records every game cycle, and at cash out the ledger's
 * machine account (the cash-ins) is squared with the house by the recorded game results, never by
 * what the cabinet happens to pay. A cabinet whose meters do not follow from the records is a
 * malfunction (meter-check.ts): the session is held and settled from the records. Promotion money
 * keeps its kind through the machine (promotion-wagering.ts).
 */
import { randomUUID } from 'node:crypto';
import {
  ActionCode,
  bandsAtFps,
  Code,
  CabinetState,
  LogType,
  messageFor,
  SessionAction,
  type CommandResult,
  type GameCycle,
  type MachineView,
  type MemoryRecall,
  type SessionNotification,
  type SessionView,
  formatCents,
} from '@reel/protocol';
import type { AppContext } from '../../context.js';
import { withTransaction, type Queryable, type Tx } from '../../db/pool.js';
import { Topic } from '../../lib/bus.js';
import { AppError } from '../../lib/errors.js';
import { withMoney } from '../ledger/ledger-service.js';
import { OperationKind, walletBalance } from '../ledger/ledger.js';
import { MeterGuard, settleFromRecords, type MalfunctionDetail } from './meter-check.js';
import { refundCreditIn, writeCashIn, writeCashOut, writeCycle, type OutboxCommand } from './money-commands.js';
import { writeAuthLog } from '../auth/login.js';
import { listMachines, DEFAULT_BANDS } from '../machines/lobby.js';
import { readSettings } from '../site/routes.js';
import type { AgentHubEvents } from '../cabinets/agent-hub.js';
import type { CabinetPort, GameConnection, SessionTimers, VideoPort } from './types.js';

export const DEFAULT_SESSION_TIMERS: SessionTimers = {
  graceMs: 120_000,
  noCreditsTimeoutMs: 90_000,
  idleTimeoutMs: 300_000,
  countdownS: 10,
};

const TICK_MS = 1_000;
/** PostgreSQL's admin shutdown, crash shutdown and "cannot connect now". */
const SHUTDOWN_CODES = new Set(['57P01', '57P02', '57P03']);
const COMMAND_TIMEOUT_MS = 8_000;
/** Jackpot contribution per bet, per level, in basis points (top level first). */
const JACKPOT_CONTRIBUTION_BP = [50, 30, 20];

interface LiveSession {
  id: string;
  playerId: number;
  machineId: number;
  machineName: string;
  status: 'active' | 'disconnected' | 'cashing_out';
  startedAt: Date;
  lastActivityMs: number;
  disconnectedAtMs: number | null;
  /** Countdown already announced (so each count is sent once per second, and again on reconnect). */
  lastCountSent: number | null;
  closing: boolean;
  /**
   * The close under way, if any. The timer tick finishes closes that a restart or an absent
   * machine interrupted; without this it would start a second cash out beside a running one and
   * reopen the closed session row (the lobby then kept showing the machine as Playing).
   */
  closeInFlight: Promise<void> | null;
  /** A close that failed (machine away) is tried again after this time. */
  retryCloseAtMs: number;
  /** A cash out under way (the timer finishes an interrupted one, but never starts a second). */
  settleInFlight: Promise<void> | null;
  /** The machine's meters did not follow from the records: play stopped, credits paid from the records. */
  held: { amountCents: number } | null;
}

const CLOSE_RETRY_MS = 10_000;

interface SessionRow {
  id: string;
  player_id: number;
  machine_id: number;
  status: LiveSession['status'] | 'joining' | 'closed';
  started_at: Date;
  spins: number;
  free_spins: number;
  cash_in_cents: number;
  cash_out_cents: number;
  win_cents: number;
  bet_cents: number;
  disconnected_at: Date | null;
  last_activity_at: Date;
  closing: boolean;
  malfunction: { paidCents: number } | null;
}

export class SessionManager {
  private readonly sessions = new Map<string, LiveSession>();
  private readonly connections = new Map<number, { conn: GameConnection; sessionId: string }>();
  /** Money commands on one machine run one after another. */
  private readonly machineQueues = new Map<number, Promise<unknown>>();
  /** A machine's cycles are recorded one after another, in the order it reported them. */
  private readonly cycleQueues = new Map<number, Promise<void>>();
  private readonly meters: MeterGuard;
  private ticker: NodeJS.Timeout | undefined;
  private readonly timers: SessionTimers;

  constructor(
    private readonly ctx: AppContext,
    private readonly cabinets: CabinetPort,
    private readonly video: VideoPort,
    timers: Partial<SessionTimers> = {},
  ) {
    this.timers = { ...DEFAULT_SESSION_TIMERS, ...timers };
    this.meters = new MeterGuard({
      db: ctx.db,
      cabinets,
      onMachine: (machineId, work) => this.onMachine(machineId, work),
      recordCycle: (machineId, cycle) => this.enqueueCycle(machineId, cycle),
      runPending: (machineId) => this.runPending(machineId),
      malfunction: (machineId, detail, recall) => this.onMeterFault(machineId, detail, recall),
      warn: (error, where) => this.warn(error, where),
    });
    this.listen('cycle', ({ machineId, cycle }) => this.track(this.enqueueCycle(machineId, cycle), 'cycle'));
    this.listen('state', ({ machineId, state, previous }) => {
      // An attendant cleared a fault: the meters are compared with the records again before play.
      const cleared = state === CabinetState.Idle && (previous === CabinetState.Malfunction || previous === CabinetState.Error);
      if (cleared) this.meters.connected(machineId);
      this.track(this.onCabinetState(machineId, state).then(() => (cleared ? this.meters.verify(machineId) : undefined)), 'state');
    });
    this.listen('meters', ({ machineId }) => this.pushMachine(machineId));
    // A (re)connected cabinet is compared with the records before anything moves on it; the
    // comparison re-sends the commands left pending.
    this.listen('connected', ({ machineId, state }) => {
      this.meters.connected(machineId);
      this.track(this.onCabinetState(machineId, state).then(() => this.meters.verify(machineId)), 'connected');
    });
    this.listen('disconnected', ({ machineId }) => this.track(this.onCabinetState(machineId, CabinetState.Offline), 'offline'));
  }

  private readonly listeners: (() => void)[] = [];

  private listen<E extends keyof AgentHubEvents>(event: E, listener: (...args: AgentHubEvents[E]) => void) {
    this.cabinets.on(event, listener);
    this.listeners.push(() => this.cabinets.off(event, listener));
  }

  private readonly inFlight = new Set<Promise<unknown>>();

  /** Cabinet events are handled asynchronously; failures are logged, never thrown at the hub. */
  private track(work: Promise<unknown>, where: string) {
    const tracked = work.catch((error) => this.warn(error, where)).finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  /** Resolves once every cabinet event received so far has been handled (tests, shutdown). */
  async drain() {
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }

  // --- life cycle ---------------------------------------------------------------------------

  /** Loads every open session after a (re)start: players are gone, so each waits in grace. */
  async start() {
    const { rows } = await this.ctx.db.query<SessionRow & { machine_name: string }>(
      `UPDATE slot_sessions s SET status = CASE WHEN s.status = 'cashing_out' THEN 'cashing_out' ELSE 'disconnected' END,
              disconnected_at = coalesce(s.disconnected_at, now())
         FROM machines m WHERE m.id = s.machine_id AND s.status <> 'closed'
        RETURNING s.*, m.name AS machine_name`,
    );
    for (const row of rows) this.remember(row, row.machine_name);
    this.ticker = setInterval(() => void this.tick().catch((e) => this.warn(e, 'tick')), TICK_MS);
    this.ticker.unref();
    for (const row of rows) void this.flushPending(row.machine_id).catch((e) => this.warn(e, 'recover'));
  }

  async stop() {
    clearInterval(this.ticker);
    this.meters.stop();
    // A stopped manager hears nothing more from the cabinets (the next one records their reports).
    for (const off of this.listeners.splice(0)) off();
    await this.drain();
    for (const { conn } of this.connections.values()) conn.close(1001, 'server shutting down');
    this.connections.clear();
  }

  private remember(row: SessionRow, machineName: string): LiveSession {
    const live: LiveSession = {
      id: row.id,
      playerId: row.player_id,
      machineId: row.machine_id,
      machineName,
      status: row.status === 'cashing_out' ? 'cashing_out' : row.status === 'disconnected' ? 'disconnected' : 'active',
      startedAt: row.started_at,
      lastActivityMs: row.last_activity_at.getTime(),
      disconnectedAtMs: row.disconnected_at?.getTime() ?? null,
      lastCountSent: null,
      closing: row.closing,
      closeInFlight: null,
      retryCloseAtMs: 0,
      settleInFlight: null,
      held: row.malfunction ? { amountCents: row.malfunction.paidCents } : null,
    };
    this.sessions.set(live.id, live);
    return live;
  }

  private shuttingDown = false;

  /** Ctrl-C reaches the database and the cabinets too: from here on their failures are expected. */
  beginShutdown() {
    this.shuttingDown = true;
  }

  private warn(error: unknown, where: string) {
    // The database is going away with the rest: nothing is lost, the next start recovers.
    if (this.shuttingDown || SHUTDOWN_CODES.has((error as { code?: string }).code ?? '')) return;
    console.warn(`[sessions] ${where}: ${(error as Error).message}`);
  }

  // --- joining and leaving ------------------------------------------------------------------

  /**
   * Joins (or resumes) the player's session on a machine and makes `conn` the player's one live
   * game connection; an older connection gets QUIT_REQUEST.
   */
  async join(playerId: number, machineId: number, conn: GameConnection) {
    const settings = readSettings(this.ctx.config.settingsFile);
    const cabinet = this.cabinets.get(machineId);
    const { session, resumed, machineName } = await withTransaction(this.ctx.db, (tx) =>
      this.openSession(tx, playerId, machineId, Boolean(cabinet && isPlayable(cabinet.state)), settings.ALLOW_0_BALANCE_TO_PLAY),
    );
    const live = this.sessions.get(session.id) ?? this.remember(session, machineName);
    live.status = live.status === 'cashing_out' ? 'cashing_out' : 'active';
    live.disconnectedAtMs = null;
    live.lastActivityMs = Date.now();
    live.lastCountSent = null;

    const previous = this.connections.get(playerId);
    if (previous && previous.conn !== conn) {
      previous.conn.send('info', info(Code.SessionTerminated, {}, SessionAction.QuitRequest));
      previous.conn.send('closed', { reason: 'QUIT_REQUEST', code: Code.SessionTerminated });
      previous.conn.close(4000, 'QUIT_REQUEST');
    }
    this.connections.set(playerId, { conn, sessionId: live.id });

    const stream = await this.video.grant(playerId, machineId).catch(() => null);
    // Cabinets report their bands at BASE_FPS; the FPS setting scales them (the cabinet encodes the same).
    const bands = bandsAtFps(cabinet?.info.bands?.length ? cabinet.info.bands : DEFAULT_BANDS, readSettings(this.ctx.config.settingsFile).FPS);
    conn.send('joined', {
      machineId,
      name: machineName,
      videoType: cabinet?.info.videoType ?? 'screen',
      bands,
      activeBand: [...bands].sort((a, b) => b.Order - a.Order)[0]!.id,
      stream,
      betLevels: cabinet?.info.betLevels ?? [],
      machine: this.machineView(machineId),
      session: await this.sessionView(this.ctx.db, live.id),
      resumed,
    });
    await this.publishMachine(machineId);
    this.notifySession(live, 'open');
    if (live.held) conn.send('info', malfunctionInfo(live.held.amountCents));
    return live;
  }

  private async openSession(tx: Tx, playerId: number, machineId: number, cabinetReady: boolean, allowZeroBalance: boolean) {
    const machine = await tx.query<{ id: number; name: string; enabled: boolean }>('SELECT id, name, enabled FROM machines WHERE id = $1 FOR UPDATE', [machineId]);
    const m = machine.rows[0];
    if (!m) throw new AppError(Code.NotFound, 404);
    const open = await tx.query<SessionRow & { machine_name: string }>(
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
    if (!m.enabled || !cabinetReady) throw new AppError(Code.MachineNotAvailable, 409);
    if (!allowZeroBalance && (await walletBalance(tx, playerId)).balance === 0) throw new AppError(Code.InsufficientBalance, 409);
    const { rows } = await tx.query<SessionRow>(
      "INSERT INTO slot_sessions (id, player_id, machine_id, status) VALUES ($1, $2, $3, 'active') RETURNING *",
      [randomUUID(), playerId, machineId],
    );
    return { session: rows[0]!, resumed: false, machineName: m.name };
  }

  /** The game socket dropped: the session and credits wait for the player for the grace period. */
  async disconnect(playerId: number, conn: GameConnection) {
    const entry = this.connections.get(playerId);
    if (!entry || entry.conn !== conn) return;
    this.connections.delete(playerId);
    const live = this.sessions.get(entry.sessionId);
    if (!live || live.closing) return;
    if (live.status === 'active') live.status = 'disconnected';
    live.disconnectedAtMs = Date.now();
    await this.ctx.db.query(
      "UPDATE slot_sessions SET status = CASE WHEN status = 'active' THEN 'disconnected' ELSE status END, disconnected_at = now() WHERE id = $1",
      [live.id],
    );
    await this.publishMachine(live.machineId);
    this.notifySession(live, 'disconnected');
  }

  /** The player leaves on purpose: cash out and close. */
  async leave(playerId: number) {
    const live = this.sessionOf(playerId);
    await this.close(live, 'left');
  }

  /**
   * The reconnect dialog's "kick": ends the player's other live game connection (another tab or
   * device) so this one can take over.
   */
  async kick(playerId: number, machineId: number, ip: string) {
    this.playerSessionOn(playerId, machineId); // 40404 unless the player holds this machine
    const entry = this.connections.get(playerId);
    if (entry) {
      entry.conn.send('info', info(Code.SessionTerminated, {}, SessionAction.QuitRequest));
      entry.conn.close(4000, 'QUIT_REQUEST');
      await this.disconnect(playerId, entry.conn);
    }
    await writeAuthLog(this.ctx.db, { playerId, type: LogType.KickedByPlayer, ip, detail: { machineId } });
  }

  /**
   * The reconnect dialog's "cancel": stops a pending close (countdown) and makes the session ready
   * to be joined again; the web app then rejoins with its token.
   */
  async cancel(playerId: number, machineId: number) {
    const live = this.playerSessionOn(playerId, machineId);
    live.lastActivityMs = Date.now();
    live.lastCountSent = null;
    if (live.status === 'disconnected') live.disconnectedAtMs = Date.now();
    await this.ctx.db.query('UPDATE slot_sessions SET last_activity_at = now() WHERE id = $1', [live.id]);
  }

  /** True while a session holds the machine. */
  isHeld(machineId: number) {
    return this.findSession((s) => s.machineId === machineId) !== undefined;
  }

  /** The player's open session, for the reconnect dialog. */
  openSessionOf(playerId: number): SessionNotification | null {
    const live = this.findSession((s) => s.playerId === playerId);
    if (!live) return null;
    return this.sessionNotification(live, live.status === 'active' && this.connections.has(playerId) ? 'open' : 'disconnected');
  }

  // --- money ----------------------------------------------------------------------------------

  /**
   * Cash In (3): wallet → machine account and a `credit_in` command, in one transaction, then the
   * command. Money commands of a session run one at a time (the machine's queue), and the limit is
   * checked inside the transaction under the session row's lock, against the records (which count
   * cash ins still on their way to the machine) and the meter, whichever is higher.
   */
  async cashIn(playerId: number, amountCents: number, idempotencyKey: string) {
    const live = this.activeSessionOf(playerId);
    const settings = readSettings(this.ctx.config.settingsFile);
    if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new AppError(Code.InvalidRequest, 400, {}, 'amount must be a positive number of cents');
    if (!this.cabinets.isConnected(live.machineId)) throw new AppError(Code.MachineNotAvailable, 409);
    if (!(await this.meters.whenVerified(live.machineId, COMMAND_TIMEOUT_MS))) throw new AppError(Code.MachineNotAvailable, 409);
    this.touch(live);
    this.sendMoneyTransfer(playerId, true);
    try {
      await this.onMachine(live.machineId, async () => {
        const commandId = await withMoney({ db: this.ctx.db, bus: this.ctx.bus }, (tx, move) =>
          writeCashIn(tx, move, {
            playerId,
            machineId: live.machineId,
            sessionId: live.id,
            amountCents,
            idempotencyKey: `cashin:${idempotencyKey}`,
            limitCents: settings.MAX_ALL_IN_LIMIT,
            meterCents: this.cabinets.get(live.machineId)?.meters?.creditsCents ?? 0,
            multiplier: this.wagerMultiplier,
          }),
        );
        await this.runCommand(commandId);
      });
      const balance = await walletBalance(this.ctx.db, playerId);
      this.send(playerId, 'cashedIn', { amountCents, balanceCents: balance.balance });
      await this.pushSession(live);
    } finally {
      this.sendMoneyTransfer(playerId, false);
    }
  }

  private get wagerMultiplier() {
    return this.ctx.config.promotions.wagerMultiplier;
  }

  /** Cash out everything on the machine to the wallet, exactly once however often it is asked. */
  async cashOut(playerId: number) {
    const live = this.sessionOf(playerId);
    this.touch(live);
    // A held session was paid from the records already.
    if (live.held) {
      this.send(playerId, 'info', malfunctionInfo(live.held.amountCents));
      return;
    }
    await this.settle(live, false);
  }

  private settle(live: LiveSession, closing: boolean): Promise<void> {
    const run = this.onMachine(live.machineId, async () => {
      // Queued behind a cash out that closed the session: nothing is left to settle.
      if (this.sessions.get(live.id) !== live) return;
      if (live.held) {
        if (closing) await this.closeHeld(live);
        return;
      }
      this.sendMoneyTransfer(live.playerId, true);
      try {
        // Reuse a cash out left pending (crash, timeout); otherwise start a new one, unless there is
        // nothing to pay (a repeated request after the money already went back). A session left in
        // `cashing_out` without a command (a crash before this was one transaction) gets one.
        let commandId = await this.pendingCommand(live.id, 'cash_out');
        if (!commandId) {
          const credits = this.cabinets.get(live.machineId)?.meters?.creditsCents;
          if (!closing && credits === 0 && live.status !== 'cashing_out') return;
          commandId = await this.beginCashOut(live, closing);
          if (!commandId) return;
        }
        await this.runCommand(commandId);
      } finally {
        this.sendMoneyTransfer(live.playerId, false);
      }
    });
    const tracked = run.finally(() => {
      if (live.settleInFlight === tracked) live.settleInFlight = null;
    });
    live.settleInFlight = tracked;
    return tracked;
  }

  private async pendingCommand(sessionId: string, type: string) {
    const { rows } = await this.ctx.db.query<{ command_id: string }>(
      "SELECT command_id FROM machine_commands WHERE session_id = $1 AND type = $2 AND status = 'pending' ORDER BY created_at LIMIT 1",
      [sessionId, type],
    );
    return rows[0]?.command_id;
  }

  /** The session goes to `cashing_out` and its cash out command is written: one transaction. */
  private async beginCashOut(live: LiveSession, closing: boolean) {
    const commandId = await withTransaction(this.ctx.db, async (tx) => {
      const { rows } = await tx.query<{ cashouts: number }>(
        "UPDATE slot_sessions SET status = 'cashing_out', cashouts = cashouts + 1, closing = closing OR $2 WHERE id = $1 AND status <> 'closed' RETURNING cashouts",
        [live.id, closing],
      );
      // Closed meanwhile (another path finished the close): no second cash out on a closed row.
      if (!rows[0]) return undefined;
      const id = `co-${live.id}-${rows[0].cashouts}`;
      await tx.query(
        "INSERT INTO machine_commands (command_id, machine_id, session_id, player_id, type) VALUES ($1, $2, $3, $4, 'cash_out')",
        [id, live.machineId, live.id, live.playerId],
      );
      return id;
    });
    if (!commandId) return undefined;
    live.status = 'cashing_out';
    live.closing ||= closing;
    return commandId;
  }

  /** Sends an outbox command to its cabinet and books the result. Safe to call again for the same id. */
  private async runCommand(commandId: string): Promise<void> {
    const { rows } = await this.ctx.db.query<OutboxCommand & { status: string }>(
      'SELECT * FROM machine_commands WHERE command_id = $1',
      [commandId],
    );
    const command = rows[0];
    if (!command || command.status !== 'pending') return;
    let result: CommandResult;
    try {
      result = await this.cabinets.sendCommand(
        command.machine_id,
        // A hand pay is a cash out whose winning part the attendant pays by hand.
        command.type === 'credit_in'
          ? { type: 'credit_in', amountCents: command.amount_cents!, commandId }
          : { type: 'cash_out', commandId },
        { timeoutMs: COMMAND_TIMEOUT_MS },
      );
    } catch {
      // Still pending: sent again when the cabinet reconnects or at the next try.
      throw new AppError(Code.MachineNoAnswer, 503);
    }
    if (command.type === 'credit_in') await this.bookCreditIn(command, result);
    else {
      // Every game the machine played before paying is recorded before the payment is booked.
      await this.cyclesSettled(command.machine_id);
      await this.bookCashOut(command, result);
    }
  }

  private async bookCreditIn(command: OutboxCommand, result: CommandResult) {
    if (result.outcome === 'ok') {
      await this.ctx.db.query("UPDATE machine_commands SET status = 'done', done_at = now() WHERE command_id = $1", [command.command_id]);
      return;
    }
    // The cabinet refused the credits: the money goes back to the wallet parts it came from.
    await withMoney({ db: this.ctx.db, bus: this.ctx.bus }, (tx, move) =>
      refundCreditIn(tx, move, command, `refused by the machine: ${result.reason ?? result.outcome}`, this.wagerMultiplier),
    );
    throw new AppError(Code.MachineNotAvailable, 409);
  }

  /**
   * Books what a cash out (or hand pay) took off the meter. The machine account is squared with the
   * house by the recorded game results; when the cabinet paid something else than the records give,
   * the machine is in malfunction and the session is settled from the records instead.
   */
  private async bookCashOut(command: OutboxCommand, result: CommandResult) {
    if (result.outcome !== 'ok') throw new AppError(Code.MachineNotAvailable, 409);
    const paidCents = result.amountCents ?? 0;
    const booked = await withMoney({ db: this.ctx.db, bus: this.ctx.bus }, (tx, move) => writeCashOut(tx, move, command, paidCents, this.wagerMultiplier));
    if (booked === null) return;
    const live = this.sessions.get(command.session_id);
    if (booked.malfunction) {
      console.warn(`[sessions] machine ${command.machine_id}: cash out ${command.command_id} paid ${paidCents}, the records give another amount; settled from the records`);
      await this.faultMachine(command.machine_id);
      await this.afterSettlement(command.machine_id, live, booked.paidCents, booked.closed);
      return;
    }
    const balance = await walletBalance(this.ctx.db, command.player_id);
    this.send(command.player_id, 'cashedOut', { amountCents: paidCents, balanceCents: balance.balance });
    if (!live) return;
    if (booked.closed) {
      await this.forget(live, 'closed');
    } else {
      live.status = live.disconnectedAtMs ? 'disconnected' : 'active';
      await this.pushSession(live);
    }
  }

  /** Re-sends every pending outbox command of a machine (after a reconnect or restart). */
  private async flushPending(machineId: number) {
    if (!this.cabinets.isConnected(machineId)) return;
    await this.onMachine(machineId, () => this.runPending(machineId)).catch((e) => this.warn(e, 'flush'));
  }

  /** The pending commands of a machine, oldest first; the caller holds the machine's queue. */
  private async runPending(machineId: number) {
    const { rows } = await this.ctx.db.query<{ command_id: string }>(
      "SELECT command_id FROM machine_commands WHERE machine_id = $1 AND status = 'pending' ORDER BY created_at",
      [machineId],
    );
    for (const { command_id } of rows) await this.runCommand(command_id).catch((e) => this.warn(e, 'flush'));
  }

  // --- meters and malfunctions -----------------------------------------------------------------

  /**
   * The meter check found a cabinet whose meters do not follow from the records (meter-check.ts).
   * Its open session is settled from the records and held; the cabinet is put into malfunction.
   * Runs inside the machine's money queue.
   */
  private async onMeterFault(machineId: number, detail: MalfunctionDetail, recall: MemoryRecall) {
    console.warn(`[sessions] machine ${machineId}: meters do not follow from the records (${detail.reason}: meter ${detail.reportedCents}, records ${detail.expectedCents})`);
    const live = this.findSession((s) => s.machineId === machineId);
    // The cabinet's own count is trusted only when it is the memory verified before.
    const sameMemory = detail.reason !== 'memory' && (detail.previousMemoryId ?? recall.memoryId) === recall.memoryId;
    const settlement = live
      ? await withMoney({ db: this.ctx.db, bus: this.ctx.bus }, (tx, move) =>
          settleFromRecords(tx, move, { sessionId: live.id, machineId, detail, multiplier: this.wagerMultiplier, payLarger: sameMemory }),
        )
      : null;
    if (!settlement) {
      await this.ctx.db.query('UPDATE machines SET meter_fault = $2 WHERE id = $1', [machineId, JSON.stringify({ ...detail, sessionId: live?.id ?? null, at: new Date().toISOString() })]);
    }
    // The credits the player was paid for leave the meter (only the memory the server knows; the
    // credits of an unknown memory stay for the attendant), then the cabinet stops in malfunction.
    if (settlement && sameMemory && recall.meters.creditsCents > 0) {
      await this.cabinets.sendCommand(machineId, { type: 'cash_out', commandId: `clear-${live!.id}` }, { timeoutMs: COMMAND_TIMEOUT_MS }).catch((e) => this.warn(e, 'meter clear'));
    }
    await this.faultMachine(machineId);
    if (settlement) await this.afterSettlement(machineId, live, settlement.paidCents, settlement.closed);
    else await this.publishMachine(machineId);
  }

  /** The cabinet stops in malfunction (kept in its memory) until an attendant clears it. */
  private async faultMachine(machineId: number) {
    await this.cabinets.sendCommand(machineId, { type: 'set_fault', fault: 'malfunction', commandId: `fault-${machineId}-${Date.now()}` }, { timeoutMs: COMMAND_TIMEOUT_MS }).catch((e) => this.warn(e, 'set fault'));
    await this.ctx.db.query("UPDATE machines SET cabinet_state = 'malfunction' WHERE id = $1", [machineId]);
  }

  /** Tells the player what happened and holds (or closes) the session. */
  private async afterSettlement(machineId: number, live: LiveSession | undefined, paidCents: number, closed: boolean) {
    if (live) {
      live.held = { amountCents: paidCents };
      live.status = live.disconnectedAtMs ? 'disconnected' : 'active';
      const balance = await walletBalance(this.ctx.db, live.playerId);
      this.send(live.playerId, 'info', malfunctionInfo(paidCents));
      this.send(live.playerId, 'cashedOut', { amountCents: paidCents, balanceCents: balance.balance });
      this.pushMachine(machineId);
      if (closed) await this.forget(live, 'closed');
      else {
        await this.pushSession(live);
        this.notifySession(live, live.status === 'active' && this.connections.has(live.playerId) ? 'open' : 'disconnected');
      }
    }
    await this.publishMachine(machineId);
  }

  /** A held session has nothing left on the machine: closing it only closes the row. */
  private async closeHeld(live: LiveSession) {
    await this.ctx.db.query(
      "UPDATE slot_sessions SET status = 'closed', closing = true, ended_at = coalesce(ended_at, now()), close_reason = coalesce(close_reason, 'machine malfunction') WHERE id = $1 AND status <> 'closed'",
      [live.id],
    );
    await this.forget(live, 'closed');
  }

  // --- play -----------------------------------------------------------------------------------

  async spin(playerId: number, commandId: string) {
    const live = this.activeSessionOf(playerId);
    this.touch(live);
    return this.relay(live, { type: 'spin', commandId: `${live.id}:${commandId}` });
  }

  async setBetLevel(playerId: number, commandId: string, level: number) {
    const live = this.activeSessionOf(playerId);
    this.touch(live);
    return this.relay(live, { type: 'set_bet_level', level, commandId: `${live.id}:${commandId}` });
  }

  async autoplay(playerId: number, commandId: string, on: boolean) {
    const live = this.activeSessionOf(playerId);
    this.touch(live);
    return this.relay(live, { type: 'autoplay', on, commandId: `${live.id}:${commandId}` });
  }

  /** A fresh stream grant, for the browser's video reconnect. */
  async renewStream(playerId: number) {
    const live = this.sessionOf(playerId);
    const grant = await this.video.grant(playerId, live.machineId);
    if (!grant) throw new AppError(Code.PipelineFailed, 503);
    this.send(playerId, 'stream', grant);
  }

  async setBand(playerId: number, bandId: string) {
    const live = this.activeSessionOf(playerId);
    const bands = this.cabinets.get(live.machineId)?.info.bands;
    if (!(bands?.length ? bands : DEFAULT_BANDS).some((band) => band.id === bandId)) {
      throw new AppError(Code.InvalidRequest, 400, {}, 'Invalid request: bandId is not one of the machine\'s bands');
    }
    await this.video.setBand?.(live.machineId, bandId);
  }

  private async relay(live: LiveSession, command: { type: 'spin'; commandId: string } | { type: 'set_bet_level'; level: number; commandId: string } | { type: 'autoplay'; on: boolean; commandId: string }) {
    // A cabinet that just (re)connected plays only once its meters agree with the records.
    if (!(await this.meters.whenVerified(live.machineId, COMMAND_TIMEOUT_MS))) throw new AppError(Code.MachineNotAvailable, 409);
    if (live.held) throw new AppError(Code.MachineMalfunction, 409, { amount: formatCents(live.held.amountCents) });
    let result: CommandResult;
    try {
      result = await this.cabinets.sendCommand(live.machineId, command, { timeoutMs: COMMAND_TIMEOUT_MS });
    } catch {
      throw new AppError(Code.MachineNoAnswer, 503);
    }
    this.pushMachine(live.machineId);
    return result;
  }

  /** Queues a reported cycle behind the machine's earlier ones; resolves once it is recorded. */
  private enqueueCycle(machineId: number, cycle: GameCycle): Promise<void> {
    const previous = this.cycleQueues.get(machineId) ?? Promise.resolve();
    const next = previous.then(() => this.recordCycle(machineId, cycle));
    const settled = next.catch((error) => this.warn(error, 'cycle'));
    this.cycleQueues.set(machineId, settled);
    return next;
  }

  /** Resolves once every cycle the machine reported so far is recorded. */
  private async cyclesSettled(machineId: number) {
    await this.cycleQueues.get(machineId);
  }

  /**
   * Records a game cycle once (the cabinet re-sends its last games after a reconnect) with the
   * session's counters and wagering progress in one transaction, then tells the player.
   */
  private async recordCycle(machineId: number, cycle: GameCycle) {
    const live = this.findSession((s) => s.machineId === machineId);
    // A held session was settled: games after that (there should be none) belong to nobody.
    const session = live && !live.held ? live : undefined;
    const machine = await withTransaction(this.ctx.db, (tx) => writeCycle(tx, machineId, session?.id ?? null, cycle));
    if (!machine) return;
    if (cycle.betCents > 0) await this.growJackpots(machine.brand_id, cycle.betCents);
    if (!session) return;
    session.lastActivityMs = Date.now();
    session.lastCountSent = null;
    const handPay = cycle.winCents > machine.handpay_limit_cents;
    // The cabinet got the spin as `<session id>:<client's command id>` (see spin()).
    const clientCommandId = cycle.commandId?.startsWith(`${session.id}:`) ? cycle.commandId.slice(session.id.length + 1) : undefined;
    this.send(session.playerId, 'cycle', {
      gameId: cycle.gameId,
      ...(clientCommandId ? { commandId: clientCommandId } : {}),
      betCents: cycle.betCents,
      winCents: cycle.winCents,
      symbols: cycle.symbols,
      creditsBeforeCents: cycle.creditsBeforeCents,
      creditsAfterCents: cycle.creditsAfterCents,
      freeSpin: cycle.freeSpin,
      freeSpinsLeft: cycle.freeSpinsLeft,
      jackpotHit: cycle.jackpotHit,
      handPay,
    });
    if (cycle.jackpotHit) await this.payJackpot(session, machine.brand_id, cycle.gameId);
    // Not awaited: the hand pay's cash out waits for this machine's cycles to be recorded.
    if (handPay) this.track(this.handPay(session, cycle), 'hand pay');
    await this.pushSession(session);
  }

  /**
   * A win above the machine's limit is not left on the meter: like an attendant's hand pay, the
   * credits are taken off and the win is booked as a Hand Pay (action code 5), the rest as a cash out.
   */
  private async handPay(live: LiveSession, cycle: GameCycle) {
    const commandId = `hp-${live.machineId}-${cycle.gameId}-${Math.round(cycle.startedAtMs)}`;
    await this.ctx.db.query(
      `INSERT INTO machine_commands (command_id, machine_id, session_id, player_id, type, amount_cents)
       VALUES ($1, $2, $3, $4, 'hand_pay', $5) ON CONFLICT DO NOTHING`,
      [commandId, live.machineId, live.id, live.playerId, cycle.winCents],
    );
    this.send(live.playerId, 'info', info(Code.Success, { amount: formatCents(cycle.winCents) }, 'HAND_PAY'));
    await this.onMachine(live.machineId, () => this.runCommand(commandId)).catch((e) => this.warn(e, 'hand pay'));
  }

  private async growJackpots(brandId: number, betCents: number) {
    const { rows } = await this.ctx.db.query<{ level: number; amount_cents: number }>(
      `UPDATE jackpots SET amount_cents = amount_cents + (($2::bigint * (ARRAY[${JACKPOT_CONTRIBUTION_BP.join(',')}])[level]) / 10000)
        WHERE brand_id = $1 AND level <= ${JACKPOT_CONTRIBUTION_BP.length} RETURNING level, amount_cents`,
      [brandId, betCents],
    );
    const jackpot = rows.sort((a, b) => a.level - b.level).map((r) => r.amount_cents).join(',');
    this.ctx.bus.publish(Topic.lobby, { event: 'jackpot', data: { brandId, jackpot } });
  }

  /** A jackpot decided by the cabinet's math is paid from the house with action code 6. */
  private async payJackpot(live: LiveSession, brandId: number, gameId: string) {
    const paid = await withMoney({ db: this.ctx.db, bus: this.ctx.bus }, async (tx, move) => {
      const { rows } = await tx.query<{ level: number; amount_cents: number; seed_cents: number }>(
        'SELECT level, amount_cents, seed_cents FROM jackpots WHERE brand_id = $1 ORDER BY level DESC LIMIT 1 FOR UPDATE',
        [brandId],
      );
      const level = rows[0];
      if (!level || level.amount_cents <= 0) return null;
      const moved = await move({
        kind: OperationKind.Jackpot,
        actionCode: ActionCode.Jackpot,
        playerId: live.playerId,
        idempotencyKey: `jackpot:${live.machineId}:${gameId}:${live.id}`,
        from: { kind: 'house' },
        to: { kind: 'wallet', playerId: live.playerId },
        amountCents: level.amount_cents,
        machineId: live.machineId,
        sessionId: live.id,
        tag: `jackpot level ${level.level}`,
      });
      if (moved.replayed) return null;
      await tx.query('UPDATE jackpots SET amount_cents = seed_cents WHERE brand_id = $1 AND level = $2', [brandId, level.level]);
      return level;
    });
    if (!paid) return;
    const { rows } = await this.ctx.db.query<{ amount_cents: number }>('SELECT amount_cents FROM jackpots WHERE brand_id = $1 ORDER BY level', [brandId]);
    this.ctx.bus.publish(Topic.lobby, {
      event: 'jackpot',
      data: { brandId, jackpot: rows.map((r) => r.amount_cents).join(','), hit: { machineId: live.machineId, amountCents: paid.amount_cents, level: paid.level } },
    });
  }

  private async onCabinetState(machineId: number, state: string) {
    await this.ctx.db.query('UPDATE machines SET cabinet_state = $2 WHERE id = $1', [machineId, state]);
    await this.publishMachine(machineId);
    this.pushMachine(machineId);
  }

  // --- timers ---------------------------------------------------------------------------------

  /** One pass over every open session: grace periods and the deposit / continue countdowns. */
  async tick(nowMs = Date.now()) {
    for (const live of [...this.sessions.values()]) {
      if (nowMs < live.retryCloseAtMs) continue;
      if (live.closeInFlight) continue;
      if (live.closing) {
        // A close interrupted by a restart or an absent machine finishes here.
        if (live.status === 'cashing_out' || live.disconnectedAtMs !== null) await this.close(live, 'resumed close').catch((e) => this.warn(e, 'close'));
        continue;
      }
      if (live.status === 'disconnected' && live.disconnectedAtMs !== null) {
        if (nowMs - live.disconnectedAtMs >= this.timers.graceMs) await this.close(live, 'grace period over').catch((e) => this.warn(e, 'grace'));
        continue;
      }
      // A cash out that a restart interrupted (the session still says cashing out) finishes here.
      if (live.status === 'cashing_out') {
        if (!live.settleInFlight) {
          await this.settle(live, false).catch((e) => {
            live.retryCloseAtMs = Date.now() + CLOSE_RETRY_MS;
            this.warn(e, 'cash out');
          });
        }
        continue;
      }
      // A held session has nothing to play and nothing on the machine: no countdowns.
      if (live.held) continue;
      if (live.status !== 'active' || !this.connections.has(live.playerId)) continue;
      const meters = this.cabinets.get(live.machineId)?.meters;
      if (meters && (meters.freeSpinsLeft > 0 || meters.autoplay)) continue;
      const credits = meters?.creditsCents ?? 0;
      const [timeoutMs, code] = credits === 0 ? [this.timers.noCreditsTimeoutMs, Code.InfoDepositCountdown] : [this.timers.idleTimeoutMs, Code.InfoContinueCountdown];
      const overMs = nowMs - live.lastActivityMs - timeoutMs;
      if (overMs < 0) continue;
      const count = this.timers.countdownS - Math.floor(overMs / 1000);
      if (count <= 0) {
        this.send(live.playerId, 'info', info(Code.InfoSessionTerminating, {}, SessionAction.CloseSession));
        await this.close(live, code === Code.InfoDepositCountdown ? 'no deposit' : 'no play').catch((e) => this.warn(e, 'close'));
      } else if (count !== live.lastCountSent) {
        live.lastCountSent = count;
        this.send(live.playerId, 'info', info(code, { count }, SessionAction.SessionCloseWarning));
      }
    }
  }

  /** Cash out whatever is on the machine and close the session. */
  close(live: LiveSession, reason: string): Promise<void> {
    live.closeInFlight ??= this.runClose(live, reason).finally(() => (live.closeInFlight = null));
    return live.closeInFlight;
  }

  private async runClose(live: LiveSession, reason: string) {
    live.closing = true;
    await this.ctx.db.query('UPDATE slot_sessions SET closing = true, close_reason = coalesce(close_reason, $2) WHERE id = $1', [live.id, reason]);
    try {
      await this.settle(live, true);
    } catch (error) {
      // The machine is away: the cash out stays pending and completes when it answers.
      live.retryCloseAtMs = Date.now() + CLOSE_RETRY_MS;
      throw error;
    }
  }

  private async forget(live: LiveSession, status: SessionNotification['status']) {
    this.sessions.delete(live.id);
    const entry = this.connections.get(live.playerId);
    if (entry?.sessionId === live.id) {
      entry.conn.send('closed', { reason: 'closed', code: Code.Success });
      this.connections.delete(live.playerId);
    }
    await this.publishMachine(live.machineId);
    this.notifySession(live, status);
  }

  // --- views and pushes -----------------------------------------------------------------------

  private findSession(match: (live: LiveSession) => boolean): LiveSession | undefined {
    for (const live of this.sessions.values()) if (match(live)) return live;
    return undefined;
  }

  private playerSessionOn(playerId: number, machineId: number): LiveSession {
    const live = this.findSession((s) => s.playerId === playerId && s.machineId === machineId);
    if (!live) throw new AppError(Code.NoOpenSession, 404);
    return live;
  }

  private sessionOf(playerId: number): LiveSession {
    const entry = this.connections.get(playerId);
    const live = entry ? this.sessions.get(entry.sessionId) : this.findSession((s) => s.playerId === playerId);
    if (!live) throw new AppError(Code.NoOpenSession, 404);
    return live;
  }

  private activeSessionOf(playerId: number): LiveSession {
    const live = this.sessionOf(playerId);
    if (live.held) throw new AppError(Code.MachineMalfunction, 409, { amount: formatCents(live.held.amountCents) });
    if (live.status === 'cashing_out' || live.closing) throw new AppError(Code.SessionTerminated, 409);
    return live;
  }

  private touch(live: LiveSession) {
    live.lastActivityMs = Date.now();
    live.lastCountSent = null;
  }

  private onMachine<T>(machineId: number, work: () => Promise<T>): Promise<T> {
    const previous = this.machineQueues.get(machineId) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(work);
    this.machineQueues.set(machineId, next.catch(() => {}));
    return next;
  }

  private send<E extends Parameters<GameConnection['send']>[0]>(playerId: number, event: E, data: Parameters<GameConnection['send']>[1] & object) {
    this.connections.get(playerId)?.conn.send(event, data as never);
  }

  private sendMoneyTransfer(playerId: number, active: boolean) {
    this.send(playerId, 'moneyTransfer', { active });
  }

  machineView(machineId: number): MachineView {
    const cabinet = this.cabinets.get(machineId);
    const meters = cabinet?.meters;
    return {
      machineId,
      cabinetState: cabinet?.state ?? CabinetState.Offline,
      creditsCents: meters?.creditsCents ?? 0,
      betCents: meters?.betCents ?? 0,
      betLevel: meters?.betLevel ?? 0,
      autoplay: meters?.autoplay ?? false,
      freeSpinsLeft: meters?.freeSpinsLeft ?? 0,
      ...(cabinet?.videoError ? { videoError: Code.PipelineFailed } : {}),
    };
  }

  private pushMachine(machineId: number) {
    const live = this.findSession((s) => s.machineId === machineId);
    if (live) this.send(live.playerId, 'machine', this.machineView(machineId));
  }

  private async sessionView(db: Queryable, sessionId: string): Promise<SessionView> {
    const { rows } = await db.query<SessionRow>('SELECT * FROM slot_sessions WHERE id = $1', [sessionId]);
    const row = rows[0]!;
    return {
      sessionId: row.id,
      machineId: row.machine_id,
      spins: row.spins,
      freeSpins: row.free_spins,
      cashInCents: row.cash_in_cents,
      cashOutCents: row.cash_out_cents,
      netCents: row.win_cents - row.bet_cents,
      startedAt: row.started_at.toISOString(),
    };
  }

  private async pushSession(live: LiveSession) {
    if (!this.connections.has(live.playerId)) return;
    this.send(live.playerId, 'session', await this.sessionView(this.ctx.db, live.id));
  }

  private readonly publishQueues = new Map<number, Promise<void>>();

  /**
   * Pushes a machine's lobby status. Reads and publishes run one after another per machine, so an
   * older read can never be published after a newer one (a free machine shown as Playing).
   */
  private publishMachine(machineId: number): Promise<void> {
    const previous = this.publishQueues.get(machineId) ?? Promise.resolve();
    const next = previous.then(async () => {
      const hotLimitCents = readSettings(this.ctx.config.settingsFile).HOT_FLAG_LIMIT;
      const [machine] = await listMachines(this.ctx.db, { hotLimitCents, machineId });
      if (machine) this.ctx.bus.publish(Topic.lobby, { event: 'machine', data: { id: machine.id, status: machine.status, hot: machine.hot } });
    });
    const settled = next.catch((error) => this.warn(error, 'lobby status'));
    this.publishQueues.set(machineId, settled);
    return settled;
  }

  private sessionNotification(live: LiveSession, status: SessionNotification['status']): SessionNotification {
    return {
      status,
      name: live.machineName,
      id: live.machineId,
      machine_status: (this.cabinets.get(live.machineId)?.state ?? (this.cabinets.isConnected(live.machineId) ? 'unknown' : CabinetState.Offline)) as SessionNotification['machine_status'],
      session_id: live.id,
    };
  }

  private notifySession(live: LiveSession, status: SessionNotification['status']) {
    this.ctx.bus.publish(Topic.player(live.playerId), { event: 'session', data: this.sessionNotification(live, status) });
  }
}

function isPlayable(state: string) {
  return state === CabinetState.Idle || state === CabinetState.InGame || state === CabinetState.InBonus;
}

/** The notice of a held session: the machine's meters disagreed and the records paid `amountCents`. */
function malfunctionInfo(amountCents: number) {
  return info(Code.MachineMalfunction, { amount: formatCents(amountCents) }, '');
}

function info(code: number, params: Record<string, number | string>, action: string) {
  return { code, params, message: messageFor(code, 'en', params) ?? '', action };
}
