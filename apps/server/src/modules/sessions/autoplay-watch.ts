/**
 * Autoplay plays on the cabinet by itself, so the server watches each game it plays (issue 28):
 *
 * - the checks before a spin (limits, breaks, the reality check) would run only when autoplay is
 *   turned on. After each game of a session whose machine is on autoplay is stored they run again;
 *   a refusal turns autoplay off on the cabinet and the player gets it as a refused spin's `error`
 *   (same code and Params);
 * - the player's own stops, chosen when turning it on (`autoplay.stops`): after that many games,
 *   a loss of that much since it started, or a single win of that much, the server turns it off
 *   and says which (`info` 18810–18812);
 * - a hand pay locks the machine: autoplay stops with it.
 *
 * The stop is sent before the game's acknowledgement, and the cabinet starts no paid game before
 * that, so autoplay never plays one game too many.
 *
 * Memory only, one run per machine: a restarted server meets a reconnecting cabinet, whose meter
 * check stops autoplay anyway (meter-check.ts).
 */
import { Code, formatCents, messageFor, type AutoplayStops, type GameCycle, type Params } from '@reel/protocol';
import { asAppError } from '../../lib/errors.js';
import type { LiveSession } from './live-session.js';
import type { SessionBase } from './session-base.js';
import { checkSpinAllowed, type SpinCheckKit } from './spin-check.js';
import { COMMAND_TIMEOUT_MS } from './types.js';

type WatchKit = SpinCheckKit & Pick<SessionBase, 'floor' | 'views'>;

interface Run {
  sessionId: string;
  stops: AutoplayStops;
  /** Games autoplay started (free spins and the player's own spins are not counted). */
  games: number;
  /** Bets less wins of the games since autoplay started. */
  lostCents: number;
}

/** Why autoplay stops; `quiet`: the player hears why from the hand pay's own notice (40906, game-cycles.ts). */
type Stop = { event: 'error'; code: number; message: string; params: Params } | { event: 'info'; code: number; params: Params } | { event: 'quiet' };

export class AutoplayWatch {
  private readonly runs = new Map<number, Run>();

  constructor(private readonly kit: WatchKit) {}

  /** Autoplay is being turned on with the player's stops (or none: it runs until turned off). */
  started(session: LiveSession, stops: AutoplayStops | undefined) {
    if (stops) this.runs.set(session.machineId, { sessionId: session.id, stops, games: 0, lostCents: 0 });
    else this.runs.delete(session.machineId);
  }

  /**
   * After the game is stored and before the cabinet is told so (game-cycles.ts; it starts no paid
   * game until then): stops autoplay when a hand pay locked the machine, a check refuses or a stop
   * is reached.
   */
  async afterCycle(session: LiveSession, cycle: GameCycle) {
    const { kit } = this;
    if (!kit.cabinets.get(session.machineId)?.meters?.autoplay) {
      this.runs.delete(session.machineId);
      return;
    }
    // Counted before anything is awaited, so the games count in the order they were stored.
    const reached = this.playersStop(session, cycle);
    if (kit.floor.handPayLock(session.machineId) !== undefined) return this.stop(session, cycle, { event: 'quiet' });
    const refusal = await checkSpinAllowed(kit, session, 'autoplay').then(
      () => undefined,
      (error: unknown) => asAppError(error) ?? Promise.reject(error),
    );
    const stop: Stop | undefined = refusal ? { event: 'error', code: refusal.code, message: refusal.message, params: refusal.params } : reached;
    if (stop) await this.stop(session, cycle, stop);
  }

  /** Counts the game into the player's run; the first stop it reaches, if any. */
  private playersStop(session: LiveSession, cycle: GameCycle): Stop | undefined {
    const run = this.runs.get(session.machineId);
    // The player's own spin (it carries their command id) is not autoplay's.
    if (!run || run.sessionId !== session.id || cycle.commandId) return undefined;
    if (!cycle.freeSpin) run.games += 1;
    run.lostCents += cycle.betCents - cycle.winCents;
    const { spins, lossCents, singleWinCents } = run.stops;
    if (singleWinCents !== undefined && cycle.winCents >= singleWinCents)
      return { event: 'info', code: Code.AutoplayWinReached, params: { win: formatCents(cycle.winCents), limit: formatCents(singleWinCents) } };
    if (lossCents !== undefined && run.lostCents >= lossCents)
      return { event: 'info', code: Code.AutoplayLossReached, params: { loss: formatCents(run.lostCents), limit: formatCents(lossCents) } };
    if (run.games >= spins) return { event: 'info', code: Code.AutoplaySpinsDone, params: { spins } };
    return undefined;
  }

  private async stop(session: LiveSession, cycle: GameCycle, stop: Stop) {
    const { kit } = this;
    this.runs.delete(session.machineId);
    // One stop per game: a re-sent game (or a second check) finds the command's earlier answer.
    const commandId = `${session.id}:autoplay-stop:${cycle.gameId}`;
    await kit.cabinets.sendCommand(session.machineId, { type: 'autoplay', on: false, commandId }, { timeoutMs: COMMAND_TIMEOUT_MS });
    if (stop.event === 'quiet') {
      // Said already.
    } else if (stop.event === 'error') {
      kit.floor.send(session.playerId, 'error', { code: stop.code, ErrorMessage: stop.message, Params: stop.params, fatal: false });
    } else {
      kit.floor.send(session.playerId, 'info', { code: stop.code, params: stop.params, message: messageFor(stop.code, 'en', stop.params) ?? '', action: '' });
    }
    kit.views.pushMachine(session.machineId);
  }
}
