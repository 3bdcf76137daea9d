/**
 * The session timers, one pass a second over every open session: the grace period of a dropped
 * player, the deposit and continue countdowns, and closes or cash outs a restart interrupted.
 */
import { Code, SessionAction } from '@reel/protocol';
import type { LiveSession } from './live-session.js';
import type { SessionKit } from './session-kit.js';
import type { SessionMoney } from './session-money.js';
import { markClosing } from './session-repository.js';
import { info } from './session-views.js';

type Kit = Pick<SessionKit, 'db' | 'cabinets' | 'floor' | 'timers' | 'warn'>;

/** A close that failed (machine away) is tried again after this long. */
const CLOSE_RETRY_MS = 10_000;

export class SessionClock {
  constructor(
    private readonly kit: Kit,
    private readonly money: Pick<SessionMoney, 'settle'>,
  ) {}

  async tick(nowMs = Date.now()) {
    const { kit } = this;
    for (const live of [...kit.floor.sessions.values()]) {
      if (nowMs < live.retryCloseAtMs) continue;
      if (live.closeInFlight) continue;
      if (live.closing) {
        // A close interrupted by a restart or an absent machine finishes here.
        if (live.status === 'cashing_out' || live.disconnectedAtMs !== null) await this.close(live, 'resumed close').catch((e) => kit.warn(e, 'close'));
        continue;
      }
      if (live.status === 'disconnected' && live.disconnectedAtMs !== null) {
        if (nowMs - live.disconnectedAtMs >= kit.timers.graceMs) await this.close(live, 'grace period over').catch((e) => kit.warn(e, 'grace'));
        continue;
      }
      // A cash out that a restart interrupted (the session still says cashing out) finishes here.
      if (live.status === 'cashing_out') {
        if (!live.settleInFlight) {
          await this.money.settle(live, false).catch((e) => {
            live.retryCloseAtMs = Date.now() + CLOSE_RETRY_MS;
            kit.warn(e, 'cash out');
          });
        }
        continue;
      }
      await this.countDown(live, nowMs);
    }
  }

  /** The deposit (no credits) or continue (no play) countdown of a session being played. */
  private async countDown(live: LiveSession, nowMs: number) {
    const { kit } = this;
    // A held session has nothing to play and nothing on the machine: no countdowns.
    if (live.held) return;
    if (live.status !== 'active' || !kit.floor.isConnected(live.playerId)) return;
    const meters = kit.cabinets.get(live.machineId)?.meters;
    if (meters && (meters.freeSpinsLeft > 0 || meters.autoplay)) return;
    const credits = meters?.creditsCents ?? 0;
    const [timeoutMs, code] = credits === 0 ? [kit.timers.noCreditsTimeoutMs, Code.InfoDepositCountdown] : [kit.timers.idleTimeoutMs, Code.InfoContinueCountdown];
    const overMs = nowMs - live.lastActivityMs - timeoutMs;
    if (overMs < 0) return;
    const count = kit.timers.countdownS - Math.floor(overMs / 1000);
    if (count <= 0) {
      kit.floor.send(live.playerId, 'info', info(Code.InfoSessionTerminating, {}, SessionAction.CloseSession));
      await this.close(live, code === Code.InfoDepositCountdown ? 'no deposit' : 'no play').catch((e) => kit.warn(e, 'close'));
    } else if (count !== live.lastCountSent) {
      live.lastCountSent = count;
      kit.floor.send(live.playerId, 'info', info(code, { count }, SessionAction.SessionCloseWarning));
    }
  }

  /** Cash out whatever is on the machine and close the session. */
  close(live: LiveSession, reason: string): Promise<void> {
    live.closeInFlight ??= this.runClose(live, reason).finally(() => (live.closeInFlight = null));
    return live.closeInFlight;
  }

  private async runClose(live: LiveSession, reason: string) {
    live.closing = true;
    await markClosing(this.kit.db, live.id, reason);
    try {
      await this.money.settle(live, true);
    } catch (error) {
      // The machine is away: the cash out stays pending and completes when it answers.
      live.retryCloseAtMs = Date.now() + CLOSE_RETRY_MS;
      throw error;
    }
  }
}
