/**
 * The cabinet's play: a paid spin takes the bet and draws the outcome, commits both, turns the
 * reels and pays (reveal); a bonus round plays its free spins; autoplay spins again after a pause;
 * after a restart, the game in progress is played out with its committed outcome.
 */
import {
  FREE_SPIN_MULTIPLIER,
  LINES,
  SYMBOL_NAMES,
  type CommandResult,
  type GameCycle,
} from '@reel/protocol';
import { RECALL_GAMES, type IncompleteGame } from './critical-memory.js';
import { drawStops, evaluateStops, rollJackpot } from './engine.js';
import { MachineCore } from './machine-core.js';
import { SoundCue, type ActiveSpin, type SlotMachineOptions } from './machine-types.js';

export class MachinePlay extends MachineCore {
  private active: ActiveSpin | null = null;
  protected finishActive: (() => void) | null = null;
  protected activeTimer: NodeJS.Timeout | null = null;
  private lastWinCents = 0;
  private bonusRunning = false;
  protected resumeTimer: NodeJS.Timeout | null = null;
  private resumedSpin: ((cycle: GameCycle) => void) | null = null;

  constructor(opts: SlotMachineOptions) {
    super(opts);
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

  get activeSpin(): ActiveSpin | null {
    return this.active;
  }
  get lastWin(): number {
    return this.lastWinCents;
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
  protected spinRefusal(): string | null {
    if (this.faulted) return 'faulted';
    if (this.base !== 'idle') return 'busy';
    if (this.meters.creditsCents < this.meters.betCents)
      return this.meters.creditsCents === 0 ? 'no_credits' : 'insufficient_credits';
    // A paid game starts only once the server has stored every earlier one: a win that locks the
    // machine for a hand pay, or a loss that crosses the player's limit, is known to the server
    // before the next bet is taken (a bonus round already won still plays out).
    if (this.unackedGames.length > 0) return 'unacknowledged_games';
    return null;
  }
  protected maybeAutoplay(): void {
    if (!this.meters.autoplay || this.base !== 'idle' || this.gapTimer) return;
    this.gapTimer = setTimeout(() => {
      this.gapTimer = null;
      if (!this.meters.autoplay) return;
      const refusal = this.spinRefusal();
      // Autoplay waits for the server's acknowledgements (the database may be restarting).
      if (refusal === 'unacknowledged_games') return this.maybeAutoplay();
      if (refusal) {
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
  protected async playPaidSpin(commandId: string | null): Promise<GameCycle> {
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
  protected async runBonus(): Promise<void> {
    if (this.bonusRunning) return;
    this.bonusRunning = true;
    try {
      while (this.meters.freeSpinsLeft > 0) {
        await new Promise((r) => setTimeout(r, this.timing.autoplayGapMs));
        if (this.offline || this.halted || this.emergencyStop !== null) return;
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
}
