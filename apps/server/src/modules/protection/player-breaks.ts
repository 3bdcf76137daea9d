/**
 * Cool-offs and self-exclusions (issue 28; docs/sessions.md "Player protection"). The player takes
 * one (take-break.ts signs them out and cashes them out); while it runs every sign-in channel is
 * refused with a code that says until when (`refusal`, asked by the sign-in and every token check).
 * The player cannot shorten it; staff read it (`history`), and only an admin ends a self-exclusion
 * early, with a reason (`endSelfExclusionEarly`, in the transaction of the console's action that
 * also writes its audit row: modules/admin/player-actions.ts).
 */
import { breakEnd, BREAK_PERIODS, Code, type AdminPlayerBreak, type BreakPeriod, type PlayerBreak } from '@reel/protocol';
import { withTransaction, type Db, type Queryable, type Tx } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import { activeBreak, breaksOf, endBreakEarly, insertBreak, type BreakRow, type StaffBreakRow } from './breaks-repository.js';

interface BreakDeps {
  db: Db;
  now: () => number;
}

const publicBreak = (row: BreakRow): PlayerBreak => ({ kind: row.kind, period: row.period, startsAt: row.starts_at.toISOString(), endsAt: row.ends_at.toISOString() });

/** What a staff member sees of a player's break: whether it is in force at `nowMs` and how it ended. */
const staffBreak = (row: StaffBreakRow, nowMs: number): AdminPlayerBreak => ({
  ...publicBreak(row),
  id: row.id,
  active: !row.ended_early_at && row.starts_at.getTime() <= nowMs && nowMs < row.ends_at.getTime(),
  endedEarlyAt: row.ended_early_at?.toISOString() ?? null,
  endedBy: row.ended_by_name,
  endReason: row.end_reason,
});

export class PlayerBreaks {
  constructor(private readonly deps: BreakDeps) {}

  /** The refusal for a player on a break now (40310 or 40311 with `until`), or null. */
  async refusal(playerId: number, db: Queryable = this.deps.db): Promise<AppError | null> {
    const row = await activeBreak(db, playerId, new Date(this.deps.now()));
    if (!row) return null;
    return new AppError(row.kind === 'self_exclusion' ? Code.SelfExcluded : Code.CoolingOff, 403, { until: row.ends_at.toISOString() });
  }

  /** Starts a break now. A player already on one (a second device) cannot start another. */
  async take(playerId: number, period: BreakPeriod): Promise<PlayerBreak> {
    const startsAt = new Date(this.deps.now());
    return withTransaction(this.deps.db, async (tx) => {
      // One break at a time per player, even for two requests at once.
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1), $2)', ['player_breaks', playerId]);
      const refusal = await this.refusal(playerId, tx);
      if (refusal) throw refusal;
      const row = await insertBreak(tx, { playerId, kind: BREAK_PERIODS[period].kind, period, startsAt, endsAt: breakEnd(period, startsAt.getTime()) });
      return publicBreak(row);
    });
  }

  /** Staff: every break of the player, newest first, with whether it is in force and how it ended. */
  async history(playerId: number): Promise<AdminPlayerBreak[]> {
    const nowMs = this.deps.now();
    return (await breaksOf(this.deps.db, playerId)).map((row) => staffBreak(row, nowMs));
  }

  /**
   * Admin only (the caller checks the role): ends the player's self-exclusion in force now, inside
   * the caller's transaction `tx` (which also writes the audit row, so both commit or neither),
   * recorded with the admin and the reason. A cool-off cannot be ended early: without a
   * self-exclusion in force this answers 40400. Returns the break as it was and as it is now.
   */
  async endSelfExclusionEarly(tx: Tx, playerId: number, end: { admin: { id: number; username: string }; reason: string }) {
    const reason = end.reason.trim();
    if (!reason) throw new AppError(Code.ReasonRequired, 400);
    const at = new Date(this.deps.now());
    const row = await activeBreak(tx, playerId, at, true);
    if (!row || row.kind !== 'self_exclusion') throw new AppError(Code.NotFound, 404, {}, 'No self-exclusion is in force for this player');
    await endBreakEarly(tx, row.id, { at, by: end.admin.id, reason });
    const before = staffBreak({ ...row, ended_by_name: null }, at.getTime());
    const after = staffBreak({ ...row, ended_early_at: at, ended_by: end.admin.id, end_reason: reason, ended_by_name: end.admin.username }, at.getTime());
    return { before, after };
  }
}
