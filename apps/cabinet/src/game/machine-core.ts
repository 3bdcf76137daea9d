/**
 * The cabinet's critical state: the meters, the fault, the outbox and the last games, the game in
 * progress and the ids of applied commands, loaded from and committed to its critical memory
 * (critical-memory.ts; what is committed when: machine.ts), and the state it reports. A failed
 * commit halts the machine. The play (machine-play.ts) and the commands (machine.ts) build on it.
 */
import { EventEmitter } from 'node:events';
import {
  BET_LEVELS_CENTS,
  type AgentMachineState,
  type CommandResult,
  type GameCycle,
  type MachineMeters,
} from '@reel/protocol';
import { CommandDeduper } from './command-deduper.js';
import {
  APPLIED_MONEY_LIMIT,
  APPLIED_OTHER_LIMIT,
  MEMORY_VERSION,
  VolatileMemoryStore,
  newMemoryImage,
  type IncompleteGame,
  type MemoryImage,
  type MemoryStore,
} from './critical-memory.js';
import {
  DEFAULT_TIMING,
  type BaseState,
  type Fault,
  type MachineEvents,
  type MachineStateEvent,
  type MachineTiming,
  type SlotMachineOptions,
} from './machine-types.js';
import { Rng } from './rng.js';

export class MachineCore extends EventEmitter<MachineEvents> {
  readonly machineId: number;
  readonly betLevels = BET_LEVELS_CENTS;
  readonly timing: MachineTiming;
  protected readonly rng: Rng;
  protected readonly nowMs: () => number;
  protected readonly deduper: CommandDeduper;
  protected base: BaseState = 'idle';
  protected fault: Fault = null;
  /** Why the video cannot start (the encoder gave up), or null. */
  protected videoFault: string | null = null;
  protected offline = false;
  /** The staff's emergency stop (their reason) while it holds; kept in the critical memory. */
  protected emergencyStop: string | null;
  private reported: AgentMachineState | null = null;
  private reportedVideoFault: string | null = null;
  private reportedStop: string | null = null;
  protected gapTimer: NodeJS.Timeout | null = null;
  protected bonusBetCents = 0;
  protected halted = false;
  private readonly memory: MemoryStore;
  private readonly onMemoryFailure: ((error: unknown) => void) | undefined;
  private readonly memoryId: string;
  /** Resolves once the machine's memory is durable (at once for a memory loaded from disk). */
  readonly ready: Promise<void>;
  protected readonly lastGames: GameCycle[];
  protected readonly unackedGames: GameCycle[];
  private ackCommitQueued = false;
  protected incomplete: IncompleteGame | null;
  private readonly appliedMoney: Map<string, CommandResult>;
  private readonly appliedOther: Map<string, CommandResult>;
  readonly meters: MachineMeters;

  constructor(opts: SlotMachineOptions) {
    super();
    this.machineId = opts.machineId;
    this.rng = opts.rng ?? new Rng();
    this.timing = { ...DEFAULT_TIMING, ...opts.timing };
    this.nowMs = opts.nowMs ?? Date.now;
    this.deduper = new CommandDeduper(2000, this.nowMs);
    this.memory = opts.memory ?? new VolatileMemoryStore();
    this.onMemoryFailure = opts.onMemoryFailure;
    const level = opts.initialBetLevel ?? 0;
    const loaded = this.memory.load();
    const image: MemoryImage =
      loaded ??
      newMemoryImage(this.machineId, {
        creditsCents: 0,
        coinInCents: 0,
        coinOutCents: 0,
        cashInCents: 0,
        cashOutCents: 0,
        gamesPlayed: 0,
        gamesWon: 0,
        freeGamesPlayed: 0,
        bonusTriggers: 0,
        jackpotHits: 0,
        betCents: BET_LEVELS_CENTS[level]!,
        betLevel: level,
        autoplay: false,
        freeSpinsLeft: 0,
      });
    this.memoryId = image.memoryId;
    this.meters = { ...image.meters, autoplay: false };
    this.fault = image.fault;
    this.emergencyStop = image.emergencyStop ?? null;
    this.bonusBetCents = image.bonusBetCents;
    this.lastGames = [...image.lastGames];
    this.unackedGames = [...image.unackedGames];
    this.incomplete = image.incompleteGame;
    this.appliedMoney = new Map(image.appliedMoney);
    this.appliedOther = new Map(image.appliedOther);
    this.deduper.preload([...image.appliedMoney, ...image.appliedOther]);
    // A new memory is written at once: its id must survive a kill -9 before the first money moves,
    // or the server would take the next start's new id for a cleared memory.
    this.ready = loaded ? Promise.resolve() : this.persist();
  }

  get state(): AgentMachineState {
    if (this.offline) return 'offline';
    return this.fault ?? (this.videoFault !== null ? 'error' : this.base);
  }
  get videoError(): string | null {
    return this.videoFault;
  }

  /** Emits the current state once so a fresh listener (or a reconnected server) learns it. */
  announce(): void {
    this.emit('state', this.withConditions({ state: this.state, previous: null }));
    this.emit('meters', { ...this.meters });
  }
  /** The critical memory as it stands (what `recall` answers). */
  recall(): NonNullable<CommandResult['recall']> {
    return {
      memoryId: this.memoryId,
      state: this.state,
      meters: { ...this.meters },
      games: this.lastGames.map((g) => ({ ...g })),
      incompleteGame: this.incomplete
        ? {
            betCents: this.incomplete.freeSpin ? 0 : this.incomplete.betCents,
            freeSpin: this.incomplete.freeSpin,
          }
        : null,
    };
  }
  /** The outbox: finished games the server has not acknowledged storing, oldest first. */
  get unacknowledgedGames(): readonly GameCycle[] {
    return this.unackedGames;
  }
  /**
   * The server has stored the game: it leaves the outbox. Acknowledgements arriving together (the
   * answer to a re-sent outbox) are committed together; one lost to a kill only means the game is
   * sent again and acknowledged again.
   */
  acknowledge(gameId: string): void {
    const index = this.unackedGames.findIndex((game) => game.gameId === gameId);
    if (index < 0) return;
    this.unackedGames.splice(index, 1);
    if (this.ackCommitQueued) return;
    this.ackCommitQueued = true;
    setImmediate(() => {
      this.ackCommitQueued = false;
      if (!this.halted) void this.persist();
    });
  }
  private snapshot(): MemoryImage {
    return {
      version: MEMORY_VERSION,
      machineId: this.machineId,
      memoryId: this.memoryId,
      meters: { ...this.meters, autoplay: false },
      fault: this.fault,
      emergencyStop: this.emergencyStop,
      bonusBetCents: this.bonusBetCents,
      lastGames: this.lastGames,
      unackedGames: this.unackedGames,
      incompleteGame: this.incomplete,
      appliedMoney: [...this.appliedMoney],
      appliedOther: [...this.appliedOther],
    };
  }
  /**
   * Commits the critical memory as it is now. A failed write stops the machine (fault `error`, like
   * a cabinet whose NVRAM fails) and the caller never continues: nothing is acknowledged that is not
   * durable.
   */
  protected persist(): Promise<void> {
    return this.memory.commit(this.snapshot()).catch((error: unknown) => {
      this.halt(error);
      return new Promise<never>(() => {});
    });
  }
  private halt(error: unknown): void {
    if (this.halted) return;
    this.halted = true;
    this.fault = 'error';
    this.setAutoplay(false);
    this.reportState(`critical memory failure: ${(error as Error)?.message ?? String(error)}`);
    this.onMemoryFailure?.(error);
  }
  /** Remembers a command's first answer in the critical memory (committed with the next commit). */
  protected applied(commandId: string, result: CommandResult, money: boolean): void {
    const map = money ? this.appliedMoney : this.appliedOther;
    map.set(commandId, result);
    const limit = money ? APPLIED_MONEY_LIMIT : APPLIED_OTHER_LIMIT;
    while (map.size > limit) map.delete(map.keys().next().value!);
  }
  /** An operator fault or a video fault: no new money in, no play. */
  protected get faulted(): boolean {
    return this.fault !== null || this.videoFault !== null;
  }
  protected setAutoplay(on: boolean): void {
    if (this.meters.autoplay === on) return;
    this.meters.autoplay = on;
    if (!on && this.gapTimer && this.base === 'idle') {
      clearTimeout(this.gapTimer);
      this.gapTimer = null;
    }
    this.emitMeters();
  }
  protected setBase(next: BaseState): void {
    if (this.base === next) return;
    this.base = next;
    this.reportState();
  }
  protected reportState(reason?: string): void {
    const state = this.state;
    if (state === this.reported && this.videoFault === this.reportedVideoFault && this.emergencyStop === this.reportedStop) return;
    const previous = this.reported;
    this.reported = state;
    this.reportedVideoFault = this.videoFault;
    this.reportedStop = this.emergencyStop;
    this.emit(
      'state',
      this.withConditions(reason === undefined ? { state, previous } : { state, previous, reason }),
    );
  }
  /** The state report with what holds the machine besides its state: a video fault, an emergency stop. */
  protected withConditions(event: MachineStateEvent): MachineStateEvent {
    return {
      ...event,
      ...(this.videoFault === null ? {} : { videoError: this.videoFault }),
      ...(this.emergencyStop === null ? {} : { emergencyStop: this.emergencyStop }),
    };
  }
  protected emitMeters(): void {
    this.emit('meters', { ...this.meters });
  }
}
