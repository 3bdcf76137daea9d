/**
 * One simulated cabinet: credit meter, bet level, game cycles with reel timing, free-spin bonus,
 * autoplay, cash out, faults. The outcome of a game is fixed by the RNG the moment the spin starts
 * (as on a real machine); the reel animation only reveals it.
 */
import { EventEmitter } from 'node:events';
import type {
  AgentCommand,
  AgentMachineState,
  CommandResult,
  GameCycle,
  MachineMeters,
} from '@reel/protocol';
import { Rng } from './rng.js';
import { drawStops, evaluateStops, rollJackpot, type SpinEvaluation } from './engine.js';
import { BET_LEVELS_CENTS, FREE_SPIN_MULTIPLIER, LINES, SYMBOL_NAMES } from './slot-config.js';
import { CommandDeduper } from './command-deduper.js';

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

export interface MachineEvents {
  state: [MachineStateEvent];
  cycle: [GameCycle];
  meters: [MachineMeters];
  spin: [ActiveSpin];
  sound: [SoundCue];
}

type BaseState = 'idle' | 'in_game' | 'in_bonus' | 'cashing_out';
type Fault = 'error' | 'malfunction' | null;

export interface SlotMachineOptions {
  machineId: number;
  rng?: Rng;
  timing?: Partial<MachineTiming>;
  nowMs?: () => number;
  initialBetLevel?: number;
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
  readonly meters: MachineMeters;

  constructor(opts: SlotMachineOptions) {
    super();
    this.machineId = opts.machineId;
    this.rng = opts.rng ?? new Rng();
    this.timing = { ...DEFAULT_TIMING, ...opts.timing };
    this.nowMs = opts.nowMs ?? Date.now;
    this.deduper = new CommandDeduper(2000, this.nowMs);
    const level = opts.initialBetLevel ?? 0;
    this.meters = {
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
    };
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

  /** Runs a command at most once per commandId (see CommandDeduper). */
  execute(command: AgentCommand): Promise<CommandResult> {
    return this.deduper.run(
      command,
      () => this.run(command),
      () => this.meters.creditsCents,
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
  }

  dispose(): void {
    if (this.activeTimer) clearTimeout(this.activeTimer);
    if (this.gapTimer) clearTimeout(this.gapTimer);
    this.removeAllListeners();
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
        this.meters.creditsCents += command.amountCents;
        this.meters.cashInCents += command.amountCents;
        this.emit('sound', SoundCue.Credit);
        this.emitMeters();
        this.maybeAutoplay();
        return this.result(command);
      }
      case 'set_bet_level': {
        const bet = BET_LEVELS_CENTS[command.level];
        if (bet === undefined) return this.reject(command, 'invalid_bet_level');
        if (this.base !== 'idle') return this.reject(command, 'busy');
        this.meters.betLevel = command.level;
        this.meters.betCents = bet;
        this.emitMeters();
        return this.result(command, { betCents: bet });
      }
      case 'spin': {
        const refusal = this.spinRefusal();
        if (refusal) return this.reject(command, refusal);
        const cycle = await this.playPaidSpin();
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
        const amountCents = this.meters.creditsCents;
        this.setBase('cashing_out');
        this.emit('sound', SoundCue.CashOut);
        await new Promise((r) => setTimeout(r, this.timing.cashOutDurationMs));
        this.meters.creditsCents = 0;
        this.meters.cashOutCents += amountCents;
        this.emitMeters();
        this.setBase('idle');
        return this.result(command, { amountCents, creditsCents: 0 });
      }
      case 'set_fault': {
        const fault = command.fault === 'none' ? null : command.fault;
        if (fault) this.setAutoplay(false);
        this.fault = fault;
        // Clearing faults clears a video fault too: the next stream_start tries the encoder again.
        if (!fault) this.videoFault = null;
        this.reportState(fault ? `fault:${fault}` : 'fault cleared');
        return this.result(command);
      }
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
      void this.playPaidSpin();
    }, this.timing.autoplayGapMs);
  }

  private async playPaidSpin(): Promise<GameCycle> {
    const betCents = this.meters.betCents;
    const creditsBefore = this.meters.creditsCents;
    this.meters.creditsCents -= betCents;
    this.meters.coinInCents += betCents;
    this.meters.gamesPlayed++;
    this.setBase('in_game');
    this.emitMeters();
    const evaluation = evaluateStops(drawStops(this.rng));
    const jackpotHit = rollJackpot(this.rng);
    const cycle = await this.reveal(evaluation, betCents, creditsBefore, false, jackpotHit);
    if (evaluation.freeSpinsAwarded > 0) {
      this.bonusBetCents = betCents;
      this.meters.bonusTriggers++;
      this.meters.freeSpinsLeft += evaluation.freeSpinsAwarded;
      this.emit('sound', SoundCue.Bonus);
      this.setBase('in_bonus');
      this.emitMeters();
      void this.runBonus();
    } else {
      this.setBase('idle');
      this.maybeAutoplay();
    }
    return cycle;
  }

  private async runBonus(): Promise<void> {
    while (this.meters.freeSpinsLeft > 0) {
      await new Promise((r) => setTimeout(r, this.timing.autoplayGapMs));
      if (this.offline) return;
      this.meters.freeSpinsLeft--;
      this.meters.freeGamesPlayed++;
      const evaluation = evaluateStops(drawStops(this.rng));
      await this.reveal(evaluation, this.bonusBetCents, this.meters.creditsCents, true, false);
      if (evaluation.freeSpinsAwarded > 0) {
        this.meters.freeSpinsLeft += evaluation.freeSpinsAwarded;
        this.emit('sound', SoundCue.Bonus);
        this.emitMeters();
      }
    }
    this.setBase('idle');
    this.maybeAutoplay();
  }

  /** Spins the reels for the configured time (or until `stop`), then pays and reports the cycle. */
  private reveal(
    ev: SpinEvaluation,
    betCents: number,
    creditsBefore: number,
    freeSpin: boolean,
    jackpotHit: boolean,
  ): Promise<GameCycle> {
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
        this.lastWinCents = winCents;
        if (winCents > 0) this.emit('sound', winCents >= betCents * 10 ? SoundCue.BigWin : SoundCue.Win);
        const cycle: GameCycle = {
          gameId: `${this.machineId}-${this.meters.gamesPlayed}${freeSpin ? `-f${this.meters.freeGamesPlayed}` : ''}`,
          betCents: freeSpin ? 0 : betCents,
          winCents,
          symbols: ev.grid.map((col) => col.map((s) => SYMBOL_NAMES[s]!)),
          lineWins,
          scatterCount: ev.scatterCount,
          scatterWinCents,
          creditsBeforeCents: creditsBefore,
          creditsAfterCents: this.meters.creditsCents,
          freeSpin,
          freeSpinsAwarded: ev.freeSpinsAwarded,
          freeSpinsLeft: this.meters.freeSpinsLeft + ev.freeSpinsAwarded,
          jackpotHit,
          startedAtMs,
          endedAtMs: now,
        };
        this.emit('cycle', cycle);
        this.emitMeters();
        resolve(cycle);
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
