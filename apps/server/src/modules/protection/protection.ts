/**
 * Player protection (issue 28), built once per server: what the session rooms, the sign-in and the
 * routes ask. Each part takes the database, the runtime settings and the clock (tests pass their own).
 */
import { Code } from '@reel/protocol';
import type { Queryable, Tx } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import { PlayerBreaks } from './player-breaks.js';
import { PlayerLimits, type ProtectionDeps } from './player-limits.js';
import { RealityChecks } from './reality-checks.js';
import { SpinPace } from './spin-pace.js';

export class Protection {
  readonly limits: PlayerLimits;
  readonly breaks: PlayerBreaks;
  readonly realityChecks: RealityChecks;
  private readonly pace = new SpinPace();

  constructor(private readonly deps: ProtectionDeps) {
    this.limits = new PlayerLimits(deps);
    this.breaks = new PlayerBreaks(deps);
    this.realityChecks = new RealityChecks(deps);
  }

  /** Inside the cash in's transaction, before money moves: no break, and within the player's limits. */
  async checkCashIn(tx: Tx, playerId: number, amountCents: number, sessionStartedAt: Date) {
    await this.refuseOnBreak(playerId, tx);
    await this.limits.checkCashIn(tx, playerId, amountCents, sessionStartedAt);
  }

  /**
   * Before a spin (or turning autoplay on) is sent to the machine: autoplay allowed, no break, within
   * the limits, no reality check due, and (a spin) not sooner than MIN_SPIN_INTERVAL_MS after the last.
   */
  async checkSpin(db: Queryable, spin: { kind: 'spin' | 'autoplay'; playerId: number; sessionId: string; betCents: number; sessionStartedAt: Date }) {
    const settings = this.deps.settings();
    if (spin.kind === 'autoplay' && !settings.AUTOPLAY_ALLOWED) throw new AppError(Code.AutoplayNotAllowed, 403);
    await this.refuseOnBreak(spin.playerId, db);
    await this.limits.checkSpin(db, spin.playerId, spin.betCents, spin.sessionStartedAt);
    await this.realityChecks.check(db, spin.playerId, spin.sessionId);
    if (spin.kind === 'spin') this.pace.start(spin.sessionId, this.deps.now(), settings.MIN_SPIN_INTERVAL_MS);
  }

  /** A session closed: its spin pace is forgotten. */
  sessionClosed(sessionId: string) {
    this.pace.forget(sessionId);
  }

  private async refuseOnBreak(playerId: number, db: Queryable) {
    const refusal = await this.breaks.refusal(playerId, db);
    if (refusal) throw refusal;
  }
}

export function createProtection(deps: ProtectionDeps): Protection {
  return new Protection(deps);
}
