/**
 * The reality check (issue 28): every N minutes of play (the player's choice, default 60; one
 * "minute" is REALITY_CHECK_UNIT_S seconds) the next spin is held by the server, answered 40920 with
 * the session's elapsed time, spins, money in and out and net position, until the player
 * acknowledges it. The interval counts from the session's start, then from each acknowledgement.
 */
import { Code, formatCents } from '@reel/protocol';
import type { Db, Queryable } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import { acknowledge, openSessionId, playingSession, realityCheckMinutes, setRealityCheckMinutes } from './reality-check-repository.js';

interface RealityCheckDeps {
  db: Db;
  settings: () => { REALITY_CHECK_UNIT_S: number };
  now: () => number;
}

export class RealityChecks {
  constructor(private readonly deps: RealityCheckDeps) {}

  minutes(playerId: number) {
    return realityCheckMinutes(this.deps.db, playerId);
  }

  setMinutes(playerId: number, minutes: number) {
    return setRealityCheckMinutes(this.deps.db, playerId, minutes);
  }

  private unitMs() {
    const seconds = this.deps.settings().REALITY_CHECK_UNIT_S;
    return (Number.isFinite(seconds) && seconds > 0 ? seconds : 60) * 1_000;
  }

  /** Before a spin: holds it (40920 with the summary) once the interval has passed unacknowledged. */
  async check(db: Queryable, playerId: number, sessionId: string) {
    const session = await playingSession(db, sessionId);
    if (!session) return;
    const minutes = await realityCheckMinutes(db, playerId);
    const nowMs = this.deps.now();
    const since = (session.acknowledged_at ?? session.started_at).getTime();
    if (nowMs - since < minutes * this.unitMs()) return;
    const elapsedMs = Math.max(0, nowMs - session.started_at.getTime());
    throw new AppError(Code.RealityCheckDue, 409, {
      minutes: Math.floor(elapsedMs / this.unitMs()),
      elapsed_s: Math.floor(elapsedMs / 1_000),
      spins: session.spins,
      money_in: formatCents(session.cash_in_cents),
      money_out: formatCents(session.cash_out_cents),
      net: formatCents(session.win_cents - session.bet_cents),
    });
  }

  /** The player saw the summary: play goes on for another interval. */
  async acknowledge(playerId: number) {
    const sessionId = await openSessionId(this.deps.db, playerId);
    if (!sessionId) throw new AppError(Code.NoOpenSession, 404);
    await acknowledge(this.deps.db, sessionId, new Date(this.deps.now()));
  }
}
