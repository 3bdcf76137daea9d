/**
 * Player protection (issue 28), built once per server: what the session rooms, the sign-in and the
 * routes ask. Each part takes the database, the runtime settings and the clock (tests pass their own).
 */
import type { Queryable, Tx } from '../../db/pool.js';
import { PlayerBreaks } from './player-breaks.js';
import { PlayerLimits, type ProtectionDeps } from './player-limits.js';
import { RealityChecks } from './reality-checks.js';

export class Protection {
  readonly limits: PlayerLimits;
  readonly breaks: PlayerBreaks;
  readonly realityChecks: RealityChecks;

  constructor(deps: ProtectionDeps) {
    this.limits = new PlayerLimits(deps);
    this.breaks = new PlayerBreaks(deps);
    this.realityChecks = new RealityChecks(deps);
  }

  /** Inside the cash in's transaction, before money moves: no break, and within the player's limits. */
  async checkCashIn(tx: Tx, playerId: number, amountCents: number, sessionStartedAt: Date) {
    await this.refuseOnBreak(playerId, tx);
    await this.limits.checkCashIn(tx, playerId, amountCents, sessionStartedAt);
  }

  /** Before a spin (or autoplay) is sent to the machine: no break, within the limits, no reality check due. */
  async checkSpin(db: Queryable, spin: { playerId: number; sessionId: string; betCents: number; sessionStartedAt: Date }) {
    await this.refuseOnBreak(spin.playerId, db);
    await this.limits.checkSpin(db, spin.playerId, spin.betCents, spin.sessionStartedAt);
    await this.realityChecks.check(db, spin.playerId, spin.sessionId);
  }

  private async refuseOnBreak(playerId: number, db: Queryable) {
    const refusal = await this.breaks.refusal(playerId, db);
    if (refusal) throw refusal;
  }
}

export function createProtection(deps: ProtectionDeps): Protection {
  return new Protection(deps);
}
