/**
 * One simulated cabinet: credit meter, bet level, game cycles with reel timing, free-spin bonus,
 * autoplay, cash out, faults. The outcome of a game is fixed by the RNG the moment the spin starts
 * (as on a real machine); the reel animation only reveals it.
 *
 * Critical memory (critical-memory.ts): the meters, the fault, the last games, the outbox of games
 * the server has not acknowledged, the game in progress and the ids of applied commands are
 * committed durably
 * - before a credit in or a cash out is answered,
 * - when a game starts: the bet is taken and the outcome drawn, and both are committed before the
 *   reels turn,
 * - when a game ends: its win is paid to the credit meter and committed before the cycle is
 *   reported or the spin answered.
 * A machine started from a memory with a game in progress plays that game again with the committed
 * outcome (the reels turn once more and land on the same stops) and pays it; a bonus round in
 * progress continues with its remaining free spins. Autoplay is not restored.
 *
 * Every finished game enters the outbox with its result and leaves it only when the server
 * acknowledges storing it (`acknowledge`); the agent client sends the outbox again after every
 * reconnect. So a game reaches the records however many games follow it and whatever is killed.
 */
import { EventEmitter } from 'node:events';
import type {
  AgentCommand,
  AgentMachineState,
  CabinetFault,
  CabinetState,
  CommandResult,
  GameCycle,
  MachineMeters,
} from '@reel/protocol';
import { Rng } from './rng.js';
import { drawStops, evaluateStops, rollJackpot, type SpinEvaluation } from './engine.js';
import { BET_LEVELS_CENTS, FREE_SPIN_MULTIPLIER, LINES, SYMBOL_NAMES } from '@reel/protocol';
import { CommandDeduper } from './command-deduper.js';
import {
  APPLIED_MONEY_LIMIT,
  APPLIED_OTHER_LIMIT,
  MEMORY_VERSION,
  RECALL_GAMES,
  UNACKED_GAMES_LIMIT,
  VolatileMemoryStore,
  newMemoryImage,
  type IncompleteGame,
  type MemoryImage,
  type MemoryStore,
} from './critical-memory.js';

export const SoundCue = {
  Spin: 'spin',
  ReelStop: 'reel_stop',
  Win: 'win',
  BigWin: 'big_win',
  Bonus: 'bonus',
  Credit: 'credit',
  CashOut: 'cash_out',
} as const;
export type SoundCue = (typeof SoundCue)[keyof typeof SoundCue];

export interface ActiveSpin {
  evaluation: SpinEvaluation;
  startedAtMs: number;
  /** Epoch ms at which each reel lands. */
  reelStopAtMs: number[];
  freeSpin: boolean;
  winCents: number;
}

export interface MachineTiming {
  /** Time until the first reel lands. */
  spinDurationMs: number;
  /** Extra time per following reel. */
  reelStaggerMs: number;
  /** Pause between autoplay spins and between free spins (win display). */
  autoplayGapMs: number;
  cashOutDurationMs: number;
}
export const DEFAULT_TIMING: MachineTiming = {
  spinDurationMs: 900,
  reelStaggerMs: 180,
  autoplayGapMs: 700,
  cashOutDurationMs: 600,
};

export interface MachineStateEvent {
  state: AgentMachineState;
  previous: AgentMachineState | null;
  reason?: string;
  /** Set while the video cannot start (see setVideoFault); the state is then at least 'error'. */
  videoError?: string;
}

interface MachineEvents {
  state: [MachineStateEvent];
  cycle: [GameCycle];
  meters: [MachineMeters];
  spin: [ActiveSpin];
  sound: [SoundCue];
}

/** What the machine does when nothing stopped it; a fault and being offline override it. */
type BaseState = Exclude<CabinetState, CabinetFault | 'offline'>;
type Fault = CabinetFault | null;

interface SlotMachineOptions {
  machineId: number;
  rng?: Rng;
  timing?: Partial<MachineTiming>;
  nowMs?: () => number;
  initialBetLevel?: number;
  /** Where the critical memory lives; default: only in this process (lost on exit). */
  memory?: MemoryStore;
  /** A commit of the critical memory failed: the machine has stopped (fault `error`). */
  onMemoryFailure?: (error: unknown) => void;
}

export class SlotMachine extends EventEmitter<MachineEvents> {
  readonly machineId: number;
  readonly betLevels = BET_LEVELS_CENTS;
  readonly timing: MachineTiming;
  private readonly rng: Rng;
  private readonly nowMs: () => number;
  private readonly deduper: CommandDeduper;
  private base: BaseState = 'idle';
  private fault: Fault = null;
  /** Why the video cannot start (the encoder gave up), or null. */
  private videoFault: string | null = null;
  private offline = false;
  private reported: AgentMachineState | null = null;
  private reportedVideoFault: string | null = null;
  private active: ActiveSpin | null = null;
  private finishActive: (() => void) | null = null;
  private activeTimer: NodeJS.Timeout | null = null;
  private gapTimer: NodeJS.Timeout | null = null;
  private bonusBetCents = 0;
  private lastWinCents = 0;
  private bonusRunning = false;
  private halted = false;
  private resumeTimer: NodeJS.Timeout | null = null;
  private resumedSpin: ((cycle: GameCycle) => void) | null = null;
  private readonly memory: MemoryStore;
  private readonly onMemoryFailure: ((error: unknown) => void) | undefined;
  private readonly memoryId: string;
  /** Resolves once the machine's memory is durable (at once for a memory loaded from disk). */
  readonly ready: Promise<void>;
  private readonly lastGames: GameCycle[];
  private readonly unackedGames: GameCycle[];
  private ackCommitQueued = false;
  private incomplete: IncompleteGame | null;
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
    if (this.incomplete) {
      this.base = this.incomplete.freeSpin ? 'in_bonus' : 'in_game';
      // The server may send the game's spin command again: it waits for the resumed game.
      const commandId = this.incomplete.commandId;
      if (commandId) {
        this.deduper.track(
          commandId,
          new Promise<CommandResult>((resolve) => {
            this.resumedSpin = (cycle) =>
              resolve({
                commandId,
                type: 'spin',
                outcome: 'ok',
                creditsCents: cycle.creditsAfterCents,
                cycle,
              });
          }),
        );
      }
    } else if (this.meters.freeSpinsLeft > 0) this.base = 'in_bonus';
    // A game or bonus round interrupted by a restart continues once the owner has attached its
    // listeners (the same tick), so its cycles are reported like any other.
    if (this.base !== 'idle') this.resumeTimer = setTimeout(() => this.resumeFromMemory(), 0);
  }

  get state(): AgentMachineState {
    if (this.offline) return 'offline';
    return this.fault ?? (this.videoFault !== null ? 'error' : this.base);
  }
  get videoError(): string | null {
    return this.videoFault;
  }
  get activeSpin(): ActiveSpin | null {
    return this.active;
  }
  get lastWin(): number {
    return this.lastWinCents;
  }

  /** Emits the current state once so a fresh listener (or a reconnected server) learns it. */
  announce(): void {
    this.emit('state', this.withVideoError({ state: this.state, previous: null }));
    this.emit('meters', { ...this.meters });
  }

  /**
   * Runs a command at most once per commandId (see CommandDeduper). A cash out refused because the
   * machine could not pay just then (a game still landing, a fault) is run again when the server
   * sends it again: the server keeps the same id until the machine pays, so a remembered refusal
   * would hold the player's money on the machine for good. A refused credit in stays refused: the
   * server gives that money back to the wallet.
   */
  execute(command: AgentCommand): Promise<CommandResult> {
    return this.deduper.run(
      command,
      () => this.run(command),
      () => this.meters.creditsCents,
      command.type === 'cash_out',
    );
  }

  /** Extra command kinds handled outside the game (streaming) share the same once-only rule. */
  executeExternal(command: AgentCommand, run: () => Promise<CommandResult>): Promise<CommandResult> {
    return this.deduper.run(command, run, () => this.meters.creditsCents);
  }

  /**
   * The video cannot start (`cause`: the encoder's first error line) or works again (null). A
   * machine nobody can watch is not playable: it reports 'error' until then, refuses spins, credits
   * and autoplay, but still pays out (cash out) so a player's money never stays stuck on it.
   */
  setVideoFault(cause: string | null): void {
    if (this.videoFault === cause) return;
    this.videoFault = cause;
    if (cause !== null) this.setAutoplay(false);
    this.reportState(cause !== null ? `video: ${cause}` : 'video restored');
  }

  setOffline(offline: boolean): void {
    this.offline = offline;
    if (offline) this.setAutoplay(false);
    this.reportState('offline');
    // A bonus round left off while offline continues when the machine is back.
    if (!offline && this.base === 'in_bonus' && !this.incomplete && !this.resumeTimer) void this.runBonus();
  }

  dispose(): void {
    if (this.activeTimer) clearTimeout(this.activeTimer);
    if (this.gapTimer) clearTimeout(this.gapTimer);
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    this.removeAllListeners();
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
  private persist(): Promise<void> {
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
  private applied(commandId: string, result: CommandResult, money: boolean): void {
    const map = money ? this.appliedMoney : this.appliedOther;
    map.set(commandId, result);
    const limit = money ? APPLIED_MONEY_LIMIT : APPLIED_OTHER_LIMIT;
    while (map.size > limit) map.delete(map.keys().next().value!);
  }

  /** After a restart: the game in progress is played out with its committed outcome, then any bonus round. */
  private resumeFromMemory(): void {
    this.resumeTimer = null;
    const game = this.incomplete;
    if (!game) {
      if (this.meters.freeSpinsLeft > 0) void this.runBonus();
      return;
    }
    void this.reveal(game).then((cycle) => {
      this.resumedSpin?.(cycle);
      this.resumedSpin = null;
      if (game.freeSpin) void this.runBonus();
      else this.afterPaidSpin(cycle);
    });
  }

  private result(command: AgentCommand, extra: Partial<CommandResult> = {}): CommandResult {
    return {
      commandId: command.commandId,
      type: command.type,
      outcome: 'ok',
      creditsCents: this.meters.creditsCents,
      ...extra,
    };
  }
  private reject(command: AgentCommand, reason: string): CommandResult {
    return this.result(command, { outcome: 'rejected', reason });
  }

  private async run(command: AgentCommand): Promise<CommandResult> {
    if (this.offline) return this.reject(command, 'offline');
    switch (command.type) {
      case 'credit_in': {
        if (this.faulted) return this.reject(command, 'faulted');
        if (this.base === 'cashing_out') return this.reject(command, 'busy');
        // Meter and applied id change together and are committed together: after a crash either
        // both are there (a replay gets this answer) or neither (a replay credits once).
        this.meters.creditsCents += command.amountCents;
        this.meters.cashInCents += command.amountCents;
        const result = this.result(command);
        this.applied(command.commandId, result, true);
        await this.persist();
        this.emit('sound', SoundCue.Credit);
        this.emitMeters();
        this.maybeAutoplay();
        return result;
      }
      case 'set_bet_level': {
        const bet = BET_LEVELS_CENTS[command.level];
        if (bet === undefined) return this.reject(command, 'invalid_bet_level');
        if (this.base !== 'idle') return this.reject(command, 'busy');
        this.meters.betLevel = command.level;
        this.meters.betCents = bet;
        const result = this.result(command, { betCents: bet });
        this.applied(command.commandId, result, false);
        await this.persist();
        this.emitMeters();
        return result;
      }
      case 'spin': {
        const refusal = this.spinRefusal();
        if (refusal) return this.reject(command, refusal);
        const cycle = await this.playPaidSpin(command.commandId);
        return this.result(command, { cycle, creditsCents: cycle.creditsAfterCents });
      }
      case 'autoplay':
        if (command.on && this.faulted) return this.reject(command, 'faulted');
        this.setAutoplay(command.on);
        this.maybeAutoplay();
        return this.result(command);
      case 'stop':
        this.setAutoplay(false);
        this.finishActive?.();
        return this.result(command);
      case 'cash_out': {
        if (this.fault) return this.reject(command, 'faulted');
        if (this.base !== 'idle') return this.reject(command, 'busy');
        this.setAutoplay(false);
        this.setBase('cashing_out');
        this.emit('sound', SoundCue.CashOut);
        await new Promise((r) => setTimeout(r, this.timing.cashOutDurationMs));
        const amountCents = this.meters.creditsCents;
        this.meters.creditsCents = 0;
        this.meters.cashOutCents += amountCents;
        const result = this.result(command, { amountCents, creditsCents: 0 });
        this.applied(command.commandId, result, true);
        await this.persist();
        this.emitMeters();
        this.setBase('idle');
        return result;
      }
      case 'set_fault': {
        if (this.halted) return this.reject(command, 'faulted');
        const fault = command.fault === 'none' ? null : command.fault;
        if (fault) this.setAutoplay(false);
        this.fault = fault;
        // Clearing faults clears a video fault too: the next stream_start tries the encoder again.
        if (!fault) this.videoFault = null;
        const result = this.result(command);
        this.applied(command.commandId, result, false);
        await this.persist();
        this.reportState(fault ? `fault:${fault}` : 'fault cleared');
        return result;
      }
      case 'recall':
        await this.ready;
        return this.result(command, { recall: this.recall() });
      default:
        return this.reject(command, 'unsupported');
    }
  }

  /** An operator fault or a video fault: no new money in, no play. */
  private get faulted(): boolean {
    return this.fault !== null || this.videoFault !== null;
  }

  private spinRefusal(): string | null {
    if (this.faulted) return 'faulted';
    if (this.base !== 'idle') return 'busy';
    if (this.meters.creditsCents < this.meters.betCents)
      return this.meters.creditsCents === 0 ? 'no_credits' : 'insufficient_credits';
    if (this.unackedGames.length >= UNACKED_GAMES_LIMIT) return 'unacknowledged_games';
    return null;
  }

  private setAutoplay(on: boolean): void {
    if (this.meters.autoplay === on) return;
    this.meters.autoplay = on;
    if (!on && this.gapTimer && this.base === 'idle') {
      clearTimeout(this.gapTimer);
      this.gapTimer = null;
    }
    this.emitMeters();
  }

  private maybeAutoplay(): void {
    if (!this.meters.autoplay || this.base !== 'idle' || this.gapTimer) return;
    this.gapTimer = setTimeout(() => {
      this.gapTimer = null;
      if (!this.meters.autoplay) return;
      if (this.spinRefusal()) {
        // Out of credits ends autoplay, as on a real cabinet.
        if (!this.faulted) this.setAutoplay(false);
        return;
      }
      void this.playPaidSpin(null);
    }, this.timing.autoplayGapMs);
  }

  private gameId(freeSpin: boolean): string {
    return `${this.machineId}-${this.meters.gamesPlayed}${freeSpin ? `-f${this.meters.freeGamesPlayed}` : ''}`;
  }

  /** Takes the bet, draws the outcome, commits both, then turns the reels and pays. */
  private async playPaidSpin(commandId: string | null): Promise<GameCycle> {
    const betCents = this.meters.betCents;
    const creditsBefore = this.meters.creditsCents;
    this.meters.creditsCents -= betCents;
    this.meters.coinInCents += betCents;
    this.meters.gamesPlayed++;
    const stops = drawStops(this.rng);
    const jackpotHit = rollJackpot(this.rng);
    const game: IncompleteGame = {
      gameId: this.gameId(false),
      freeSpin: false,
      betCents,
      stops,
      jackpotHit,
      creditsBeforeCents: creditsBefore,
      startedAtMs: this.nowMs(),
      commandId,
    };
    this.incomplete = game;
    this.setBase('in_game');
    this.emitMeters();
    await this.persist();
    const cycle = await this.reveal(game);
    this.afterPaidSpin(cycle);
    return cycle;
  }

  private afterPaidSpin(cycle: GameCycle): void {
    if (cycle.freeSpinsAwarded > 0) {
      this.emit('sound', SoundCue.Bonus);
      this.setBase('in_bonus');
      this.emitMeters();
      void this.runBonus();
    } else {
      this.setBase('idle');
      this.maybeAutoplay();
    }
  }

  private async runBonus(): Promise<void> {
    if (this.bonusRunning) return;
    this.bonusRunning = true;
    try {
      while (this.meters.freeSpinsLeft > 0) {
        await new Promise((r) => setTimeout(r, this.timing.autoplayGapMs));
        if (this.offline || this.halted) return;
        this.meters.freeSpinsLeft--;
        this.meters.freeGamesPlayed++;
        const game: IncompleteGame = {
          gameId: this.gameId(true),
          freeSpin: true,
          betCents: this.bonusBetCents,
          stops: drawStops(this.rng),
          jackpotHit: false,
          creditsBeforeCents: this.meters.creditsCents,
          startedAtMs: this.nowMs(),
          commandId: null,
        };
        this.incomplete = game;
        await this.persist();
        const cycle = await this.reveal(game);
        if (cycle.freeSpinsAwarded > 0) {
          this.emit('sound', SoundCue.Bonus);
          this.emitMeters();
        }
      }
      this.setBase('idle');
      this.maybeAutoplay();
    } finally {
      this.bonusRunning = false;
    }
  }

  /**
   * Spins the reels for the configured time (or until `stop`), then pays the committed outcome,
   * commits the memory and only then reports the cycle.
   */
  private reveal(game: IncompleteGame): Promise<GameCycle> {
    const ev = evaluateStops(game.stops);
    const { betCents, freeSpin, jackpotHit } = game;
    const lineBetCents = betCents / LINES;
    const multiplier = freeSpin ? FREE_SPIN_MULTIPLIER : 1;
    const lineWins = ev.lineWins.map((w) => ({
      line: w.line,
      symbol: SYMBOL_NAMES[w.symbol]!,
      count: w.count,
      winCents: w.pay * lineBetCents * multiplier,
    }));
    const scatterWinCents = ev.scatterPay * betCents * multiplier;
    const winCents = lineWins.reduce((a, w) => a + w.winCents, 0) + scatterWinCents;
    const startedAtMs = this.nowMs();
    const reelStopAtMs = ev.stops.map(
      (_, r) => startedAtMs + this.timing.spinDurationMs + r * this.timing.reelStaggerMs,
    );
    const spin: ActiveSpin = { evaluation: ev, startedAtMs, reelStopAtMs, freeSpin, winCents };
    this.active = spin;
    this.lastWinCents = 0;
    this.emit('spin', spin);
    this.emit('sound', SoundCue.Spin);
    const totalMs = reelStopAtMs[reelStopAtMs.length - 1]! - startedAtMs;
    return new Promise<GameCycle>((resolve) => {
      const finish = (): void => {
        if (this.activeTimer) clearTimeout(this.activeTimer);
        this.activeTimer = null;
        this.finishActive = null;
        const now = this.nowMs();
        // A slammed stop lands every reel now.
        spin.reelStopAtMs = spin.reelStopAtMs.map((t) => Math.min(t, now));
        this.meters.creditsCents += winCents;
        this.meters.coinOutCents += winCents;
        if (winCents > 0) this.meters.gamesWon++;
        if (jackpotHit) this.meters.jackpotHits++;
        // The award is part of the game's result: committed with its win.
        if (ev.freeSpinsAwarded > 0) {
          if (!freeSpin) {
            this.bonusBetCents = betCents;
            this.meters.bonusTriggers++;
          }
          this.meters.freeSpinsLeft += ev.freeSpinsAwarded;
        }
        this.lastWinCents = winCents;
        if (winCents > 0) this.emit('sound', winCents >= betCents * 10 ? SoundCue.BigWin : SoundCue.Win);
        const cycle: GameCycle = {
          gameId: game.gameId,
          ...(game.commandId ? { commandId: game.commandId } : {}),
          betCents: freeSpin ? 0 : betCents,
          winCents,
          symbols: ev.grid.map((col) => col.map((s) => SYMBOL_NAMES[s]!)),
          lineWins,
          scatterCount: ev.scatterCount,
          scatterWinCents,
          creditsBeforeCents: game.creditsBeforeCents,
          creditsAfterCents: this.meters.creditsCents,
          freeSpin,
          freeSpinsAwarded: ev.freeSpinsAwarded,
          freeSpinsLeft: this.meters.freeSpinsLeft,
          jackpotHit,
          startedAtMs: game.startedAtMs,
          endedAtMs: now,
        };
        this.lastGames.push(cycle);
        if (this.lastGames.length > RECALL_GAMES) this.lastGames.shift();
        this.unackedGames.push(cycle);
        this.incomplete = null;
        if (game.commandId) {
          this.applied(
            game.commandId,
            {
              commandId: game.commandId,
              type: 'spin',
              outcome: 'ok',
              creditsCents: cycle.creditsAfterCents,
              cycle,
            },
            false,
          );
        }
        void this.persist().then(() => {
          this.emit('cycle', cycle);
          this.emitMeters();
          resolve(cycle);
        });
      };
      this.finishActive = finish;
      this.activeTimer = setTimeout(finish, totalMs);
    });
  }

  private setBase(next: BaseState): void {
    if (this.base === next) return;
    this.base = next;
    this.reportState();
  }

  private reportState(reason?: string): void {
    const state = this.state;
    if (state === this.reported && this.videoFault === this.reportedVideoFault) return;
    const previous = this.reported;
    this.reported = state;
    this.reportedVideoFault = this.videoFault;
    this.emit(
      'state',
      this.withVideoError(reason === undefined ? { state, previous } : { state, previous, reason }),
    );
  }

  private withVideoError(event: MachineStateEvent): MachineStateEvent {
    return this.videoFault === null ? event : { ...event, videoError: this.videoFault };
  }

  private emitMeters(): void {
    this.emit('meters', { ...this.meters });
  }
}
