/**
 * Autoplay plays on the cabinet by itself, so the server's checks before a spin (limits, breaks,
 * the reality check) would run only when autoplay is turned on. After each game of a session whose
 * machine is on autoplay is stored, the same checks run again; a refusal turns autoplay off on the
 * cabinet and the player gets it as a refused spin's `error` (same code and Params).
 */
import type { GameCycle } from '@reel/protocol';
import { asAppError, type AppError } from '../../lib/errors.js';
import type { LiveSession } from './live-session.js';
import type { SessionBase } from './session-base.js';
import { checkSpinAllowed, type SpinCheckKit } from './spin-check.js';
import { COMMAND_TIMEOUT_MS } from './types.js';

type WatchKit = SpinCheckKit & Pick<SessionBase, 'floor' | 'views'>;

export class AutoplayWatch {
  constructor(private readonly kit: WatchKit) {}

  /** After the game is stored (game-cycles.ts): stops autoplay when the next spin would be refused. */
  async afterCycle(session: LiveSession, cycle: GameCycle) {
    const { kit } = this;
    if (!kit.cabinets.get(session.machineId)?.meters.autoplay) return;
    const refusal = await checkSpinAllowed(kit, session, 'autoplay').then(
      () => undefined,
      (error: unknown) => asAppError(error) ?? Promise.reject(error),
    );
    if (refusal) await this.stop(session, cycle, refusal);
  }

  private async stop(session: LiveSession, cycle: GameCycle, why: AppError) {
    const { kit } = this;
    // One stop per game: a re-sent game (or a second check) finds the command's earlier answer.
    const commandId = `${session.id}:autoplay-stop:${cycle.gameId}`;
    await kit.cabinets.sendCommand(session.machineId, { type: 'autoplay', on: false, commandId }, { timeoutMs: COMMAND_TIMEOUT_MS });
    kit.floor.send(session.playerId, 'error', { code: why.code, ErrorMessage: why.message, Params: why.params, fatal: false });
    kit.views.pushMachine(session.machineId);
  }
}
