/**
 * The play session state machine (docs/sessions.md; the map of rooms: docs/architecture.md), owned by the server:
 *
 *   joining → active ⇄ disconnected (grace) → cashing out → closed
 *
 * This file wires the rooms together and hears the cabinets; each responsibility has its own file:
 * the open sessions and sockets (session-floor.ts), joining and leaving (session-entry.ts), play
 * commands (session-play.ts), money as the player asks for it (session-money.ts), the machine's
 * money commands end to end (command-outbox.ts), game cycles (game-cycles.ts, cycle-order.ts) and
 * jackpots (../jackpots), malfunctions (malfunctions.ts, meter-check.ts), a session's end
 * (session-end.ts), timers (session-clock.ts), what players and lobbies are shown
 * (session-views.ts, lobby-status.ts) and one file per table written (session-repository.ts,
 * command-repository.ts, machine-state.ts).
 *
 * The rooms are built bottom-up and each gets only rooms below it: the road runs one way, from
 * here down to the ledger, and results come back as return values (docs/sessions.md).
 */
import { CabinetState, Code, SessionAction, isUnavailableCabinetState, type AutoplayStops, type MachineView, type SessionNotification, type VideoType } from '@reel/protocol';
import type { AgentHubEvents } from '../cabinets/agent-hub.js';
import { readSettings } from '../settings/runtime-settings.js';
import { Topic } from '../../lib/bus.js';
import { BackgroundWork } from './background-work.js';
import { showView } from './cabinet-view.js';
import { CommandOutbox } from './command-outbox.js';
import { CycleOrder } from './cycle-order.js';
import { AutoplayWatch } from './autoplay-watch.js';
import { GameCycles } from './game-cycles.js';
import { LobbyStatus } from './lobby-status.js';
import { setCabinetState } from './machine-state.js';
import { Malfunctions } from './malfunctions.js';
import { MeterGuard } from './meter-check.js';
import { SessionClock } from './session-clock.js';
import { SessionEnd } from './session-end.js';
import { SessionEntry } from './session-entry.js';
import { SessionFloor } from './session-floor.js';
import type { SessionDeps, SessionKit } from './session-kit.js';
import { SessionMoney } from './session-money.js';
import { SessionPlay } from './session-play.js';
import { reopenAfterRestart, type MachineShard } from './session-repository.js';
import { SessionViews } from './session-views.js';
import type { LiveSession } from './live-session.js';
import { info } from './session-views.js';
import { waitingHandPayMachines } from '../hand-pays/hand-pay-repository.js';
import type { CabinetPort, GameConnection, SessionService, SessionTimers, VideoPort } from './types.js';

const DEFAULT_SESSION_TIMERS: SessionTimers = {
  graceMs: 120_000,
  noCreditsTimeoutMs: 90_000,
  idleTimeoutMs: 300_000,
  countdownS: 10,
};

const TICK_MS = 1_000;
/** How long a staff video grant keeps an unplayed machine streaming (grants are asked again to watch longer). */
const STAFF_WATCH_MS = 5 * 60_000;
/** The viewer id a staff grant carries: no player (viewers are counted per machine, not per player). */
const STAFF_VIEWER_ID = 0;

export class SessionManager implements SessionService {
  private readonly kit: SessionKit;
  private readonly background = new BackgroundWork();
  private readonly entry: SessionEntry;
  private readonly play: SessionPlay;
  private readonly money: SessionMoney;
  private readonly cycles: GameCycles;
  private readonly order: CycleOrder;
  private readonly clock: SessionClock;
  private readonly listeners: (() => void)[] = [];
  private ticker: NodeJS.Timeout | undefined;
  /** While `start` loads the open sessions (cabinet events wait for it, see `listen`). */
  private loading: Promise<unknown> | null = null;
  /** Machines staff asked to watch, until when (the idle sweep keeps their streams meanwhile). */
  private readonly staffWatching = new Map<number, number>();

  constructor(deps: SessionDeps, cabinets: CabinetPort, video: VideoPort, timers: Partial<SessionTimers> = {}) {
    const { db, bus, config } = deps;
    const { warn, track } = this.background;
    const wagerMultiplier = config.promotions.wagerMultiplier;
    const settings = () => readSettings(config.settingsFile);
    const floor = new SessionFloor();
    const views = new SessionViews({ db, bus, cabinets, floor });
    const lobby = new LobbyStatus({ db, bus, hotLimitCents: () => settings().HOT_FLAG_LIMIT, warn });
    const end = new SessionEnd({ cabinets, floor, views, lobby, track, protection: deps.protection, queue: deps.queue });
    const malfunctions = new Malfunctions({ db, bus, cabinets, floor, views, lobby, end, wagerMultiplier, warn });
    this.order = new CycleOrder(warn);
    const secondSignerCents = () => settings().HAND_PAY_SECOND_SIGNER;
    const outbox = new CommandOutbox({ db, bus, cabinets, floor, views, order: this.order, malfunctions, end, wagerMultiplier, secondSignerCents, warn });
    const handPayLimitCents = () => settings().HAND_PAY_LIMIT;
    const autoplay = new AutoplayWatch({ db, cabinets, floor, views, protection: deps.protection });
    this.cycles = new GameCycles({ db, bus, cabinets, floor, views, lobby, order: this.order, outbox, handPayLimitCents, autoplay, track, warn });
    const meters = new MeterGuard({ db, cabinets, commands: outbox, cycles: this.cycles, order: this.order, malfunctions, warn });
    this.kit = {
      db,
      bus,
      settings,
      cabinets,
      video,
      timers: { ...DEFAULT_SESSION_TIMERS, ...timers },
      floor,
      views,
      lobby,
      outbox,
      order: this.order,
      meters,
      protection: deps.protection,
      autoplayWatch: autoplay,
      queue: deps.queue,
      warn,
    };
    this.money = new SessionMoney(this.kit, malfunctions);
    this.entry = new SessionEntry(this.kit);
    this.play = new SessionPlay(this.kit);
    this.clock = new SessionClock(this.kit, this.money);
    this.hearCabinets();
    // A queue's length is part of the machine's lobby status (whichever server changed the queue);
    // the machine's own manager says it, once (with shards, one manager per shard hears the bus).
    const offQueue = bus.subscribe(Topic.queueChanged, (message) => {
      const { machineId } = message as { machineId: number };
      if (cabinets.owns?.(machineId) ?? true) void lobby.publish(machineId);
    });
    this.listeners.push(offQueue);
  }

  private hearCabinets() {
    const { meters } = this.kit;
    this.listen('cycle', ({ machineId, cycle }) => this.track(this.cycles.enqueue(machineId, cycle), 'cycle'));
    this.listen('state', ({ machineId, state, previous }) => {
      // An attendant cleared a fault: the meters are compared with the records again before play.
      const cleared = state === CabinetState.Idle && (previous === CabinetState.Malfunction || previous === CabinetState.Error);
      if (cleared) meters.connected(machineId);
      this.track(this.onCabinetState(machineId, state, previous).then(() => (cleared ? meters.verify(machineId) : undefined)), 'state');
    });
    this.listen('meters', ({ machineId }) => this.kit.views.pushMachine(machineId));
    // A (re)connected cabinet is compared with the records before anything moves on it; the
    // comparison re-sends the commands left pending.
    this.listen('connected', ({ machineId, state }) => {
      meters.connected(machineId);
      this.order.reconnected(machineId);
      this.track(
        this.onCabinetState(machineId, state).then(() => {
          this.resendView(machineId);
          return meters.verify(machineId);
        }),
        'connected',
      );
    });
    this.listen('disconnected', ({ machineId }) => this.track(this.onCabinetState(machineId, CabinetState.Offline), 'offline'));
  }

  /**
   * While `start` loads the open sessions, what the cabinets report waits for it, in the order it
   * came: a cluster shard's new owner hears its cabinets from the moment this manager exists, and a
   * game recorded before its session is on the floor would count on no session (the meter check
   * then finds the meters off the records and holds the session as a malfunction). A manager that
   * fails to start handles none of it.
   */
  private listen<E extends keyof AgentHubEvents>(event: E, listener: (...args: AgentHubEvents[E]) => void) {
    const heard = (...args: AgentHubEvents[E]) => {
      if (!this.loading) return listener(...args);
      void this.loading.then(() => listener(...args), () => {});
    };
    this.kit.cabinets.on(event, heard);
    this.listeners.push(() => this.kit.cabinets.off(event, heard));
  }

  /** Cabinet events are handled asynchronously; failures are logged, never thrown at the hub. */
  private track(work: Promise<unknown>, where: string) {
    this.background.track(work, where);
  }

  /** Resolves once every cabinet event received so far has been handled (tests, shutdown). */
  drain() {
    return this.background.drain();
  }

  /**
   * `previous` is known for a state change of a connected cabinet. The lobby only shows whether a
   * cabinet can play, so a spin's idle → in_game → idle asks the lobby nothing (the spin's wins
   * reach the lobby's hot flag with its game cycle, game-cycles.ts).
   */
  private async onCabinetState(machineId: number, state: string, previous?: string | null) {
    await setCabinetState(this.kit.db, machineId, state);
    if (previous == null || isUnavailableCabinetState(previous) !== isUnavailableCabinetState(state)) await this.kit.lobby.publish(machineId);
    this.kit.views.pushMachine(machineId);
  }

  /**
   * A cabinet shows its screen after losing the server: the player's camera choice is sent again
   * (after the cabinet's auth_result, which the hub sends once the 'connected' listeners returned).
   */
  private resendView(machineId: number) {
    if (this.kit.floor.onMachine(machineId)?.videoType === 'camera') this.track(showView(this.kit.cabinets, machineId, 'camera'), 'view');
  }

  // --- life cycle ---------------------------------------------------------------------------

  /**
   * Loads every open session after a (re)start: players are gone, so each waits in grace. A cluster
   * server's manager runs one shard and loads only its machines' sessions.
   */
  async start(shard?: MachineShard) {
    const loading = this.load(shard);
    this.loading = loading;
    const rows = await loading.finally(() => (this.loading = null));
    this.ticker = setInterval(() => void this.tick().catch((e) => this.kit.warn(e, 'tick')), TICK_MS);
    this.ticker.unref();
    for (const row of rows) void this.kit.outbox.flush(row.machine_id).catch((e) => this.kit.warn(e, 'recover'));
    // The queue's deadlines resume from its table: they run where the sessions run.
    this.kit.queue?.startClock();
  }

  /** The open sessions onto the floor, with the machines a hand pay locks. */
  private async load(shard?: MachineShard) {
    const rows = await reopenAfterRestart(this.kit.db, shard);
    this.kit.floor.setHandPayLocks(await waitingHandPayMachines(this.kit.db));
    for (const row of rows) this.kit.floor.remember(row, row.machine_name);
    return rows;
  }

  async stop() {
    clearInterval(this.ticker);
    await this.kit.queue?.stopClock();
    this.kit.meters.stop();
    // A stopped manager hears nothing more from the cabinets (the next one records their reports).
    for (const off of this.listeners.splice(0)) off();
    await this.drain();
    this.kit.floor.closeAll();
  }

  /** Ctrl-C reaches the database and the cabinets too: from here on their failures are expected. */
  beginShutdown() {
    this.background.beginShutdown();
  }

  // --- what the routes ask ------------------------------------------------------------------

  join(playerId: number, machineId: number, conn: GameConnection) {
    return this.entry.join(playerId, machineId, conn);
  }

  disconnect(playerId: number, conn: GameConnection) {
    return this.entry.disconnect(playerId, conn);
  }

  /** The player leaves on purpose: cash out and close. */
  async leave(playerId: number) {
    await this.clock.close(this.kit.floor.sessionOf(playerId), 'left');
  }

  kick(playerId: number, machineId: number, ip: string) {
    return this.entry.kick(playerId, machineId, ip);
  }

  cancel(playerId: number, machineId: number) {
    return this.entry.cancel(playerId, machineId);
  }

  /** True while a session holds the machine. */
  isHeld(machineId: number) {
    return this.kit.floor.onMachine(machineId) !== undefined;
  }

  /** The player's open session, for the reconnect dialog. */
  openSessionOf(playerId: number): SessionNotification | null {
    const live = this.kit.floor.find((s) => s.playerId === playerId);
    return live ? this.kit.views.sessionNotification(live, this.kit.views.presence(live)) : null;
  }

  cashIn(playerId: number, amountCents: number, idempotencyKey: string) {
    return this.money.cashIn(playerId, amountCents, idempotencyKey);
  }

  cashOut(playerId: number) {
    return this.money.cashOut(playerId);
  }

  spin(playerId: number, commandId: string) {
    return this.play.spin(playerId, commandId);
  }

  setBetLevel(playerId: number, commandId: string, level: number) {
    return this.play.setBetLevel(playerId, commandId, level);
  }

  autoplay(playerId: number, commandId: string, on: boolean, stops?: AutoplayStops) {
    return this.play.autoplay(playerId, commandId, on, stops);
  }

  renewStream(playerId: number) {
    return this.play.renewStream(playerId);
  }

  setBand(playerId: number, bandId: string) {
    return this.play.setBand(playerId, bandId);
  }

  setVideoType(playerId: number, videoType: VideoType) {
    return this.play.setVideoType(playerId, videoType);
  }

  // --- what the operator console asks ---------------------------------------------------------

  /** Every open session on the floor (the console's live view). */
  floorSessions(): readonly LiveSession[] {
    return [...this.kit.floor.sessions.values()];
  }

  /** The cabinets as the sessions see them (the console's floor reads their live state). */
  get cabinets(): Pick<CabinetPort, 'get' | 'isConnected' | 'on' | 'off'> {
    return this.kit.cabinets;
  }

  /** Tells the cabinet about an emergency stop (or its release); false when it is not here now. */
  sendEmergencyStop(machineId: number, stop: { reason: string } | null): boolean {
    return this.kit.cabinets.sendEmergencyStop?.(machineId, stop) ?? false;
  }

  /**
   * A staff member watches the machine (the console's live video): a grant of its own, and the
   * machine keeps streaming while they may still be watching even if nobody plays it. The player
   * holding it is not affected (another viewer of the same stream). Null when video is off.
   */
  async staffVideoGrant(machineId: number) {
    this.staffWatching.set(machineId, Date.now() + STAFF_WATCH_MS);
    return this.kit.video.grant(STAFF_VIEWER_ID, machineId);
  }

  /** Whether the machine should keep streaming: a session holds it or staff are watching it. */
  wantsStream(machineId: number) {
    return this.isHeld(machineId) || (this.staffWatching.get(machineId) ?? 0) > Date.now();
  }

  /** The machine's lobby status again (staff took it out of service or stopped it). */
  publishMachine(machineId: number) {
    return this.kit.lobby.publish(machineId);
  }

  /**
   * Staff paid a hand pay: the machine's lock follows the records again (another may still wait),
   * the lobby hears it, and the player (if playing) is told.
   */
  async handPayPaid(machineId: number, playerId: number, amountCents: number) {
    this.kit.floor.setHandPayLocks(await waitingHandPayMachines(this.kit.db), machineId);
    this.kit.floor.send(playerId, 'info', info(Code.Success, { amount: amountCents }, SessionAction.HandPay));
    await this.kit.lobby.publish(machineId);
  }

  /** Staff send the machine's player away (QUIT_REQUEST); answers the player, null when none. */
  kickByStaff(machineId: number) {
    return this.entry.kickByStaff(machineId);
  }

  /** Staff cash out the machine's session to the player's wallet (the player's own cash out road). */
  async cashOutByStaff(machineId: number): Promise<number | null> {
    const live = this.kit.floor.onMachine(machineId);
    if (!live) return null;
    await this.money.cashOut(live.playerId);
    return live.playerId;
  }

  machineView(machineId: number): MachineView {
    return this.kit.views.machineView(machineId);
  }

  /** One pass of the session timers (the ticker calls it every second; tests call it directly). */
  tick(nowMs = Date.now()) {
    return this.clock.tick(nowMs);
  }
}
