/**
 * The player's own limits (issue 28; docs/sessions.md "Player protection"): deposit (cash in) and
 * loss limits per day, week and month, and a session time limit.
 *
 * A stricter value applies at once; a raise or a removal waits LIMIT_INCREASE_DELAY_H and then the
 * player's explicit confirmation (an unconfirmed raise never applies). The session rooms ask here
 * before a command is written: the cash in inside its own transaction (the limit rows locked, so a
 * concurrent cash in or a kill -9 between check and write cannot pass the limit), a spin before it
 * is sent. Time comes from the injected clock.
 */
import { Code, formatCents, LIMIT_KEYS, limitPeriod, type LimitKey, type PlayerLimit } from '@reel/protocol';
import { withTransaction, type Db, type Queryable } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import { periodBounds } from './limit-periods.js';
import { depositedSince, lostSince, openSessionStart } from './limit-usage.js';
import { applyLimit, readLimits, requestRaise, type LimitRow } from './limits-repository.js';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

export interface ProtectionDeps {
  db: Db;
  /** LIMIT_INCREASE_DELAY_H and the other protection settings, read when needed (Settings.json). */
  settings: () => { LIMIT_INCREASE_DELAY_H: number; REALITY_CHECK_UNIT_S: number; MIN_SPIN_INTERVAL_MS: number; AUTOPLAY_ALLOWED: boolean };
  now: () => number;
}

type MoneyKey = Exclude<LimitKey, 'session_minutes'>;

const DEPOSIT_CODES = { day: Code.DepositLimitDay, week: Code.DepositLimitWeek, month: Code.DepositLimitMonth } as const;
const LOSS_CODES = { day: Code.LossLimitDay, week: Code.LossLimitWeek, month: Code.LossLimitMonth } as const;

/** A stricter limit (or a first one) applies at once; anything looser waits. */
const isStricter = (current: number | null, next: number | null) => next !== null && (current === null || next <= current);

interface Allowance {
  key: MoneyKey;
  limit: number;
  left: number;
  resets: Date;
}

export class PlayerLimits {
  constructor(private readonly deps: ProtectionDeps) {}

  private delayMs() {
    const hours = this.deps.settings().LIMIT_INCREASE_DELAY_H;
    return (Number.isFinite(hours) && hours >= 0 ? hours : 24) * HOUR_MS;
  }

  /** Every limit key with its value, what is used of it now, when it resets, and any raise waiting. */
  async list(playerId: number): Promise<PlayerLimit[]> {
    const { db, now } = this.deps;
    const rows = new Map((await readLimits(db, playerId)).map((row) => [row.key, row]));
    const openSessionStartedAt = await openSessionStart(db, playerId);
    const nowMs = now();
    return Promise.all(
      LIMIT_KEYS.map(async (key) => {
        const row = rows.get(key);
        const period = limitPeriod(key);
        let used = 0;
        let resetsAt: string | null = null;
        if (period === 'session') {
          used = openSessionStartedAt ? Math.floor((nowMs - openSessionStartedAt.getTime()) / MINUTE_MS) : 0;
        } else {
          const bounds = periodBounds(period, nowMs);
          used = await (key.startsWith('deposit') ? depositedSince : lostSince)(db, playerId, bounds.start);
          resetsAt = bounds.end.toISOString();
        }
        return { key, value: row?.value ?? null, used, resetsAt, pending: row ? this.pendingOf(row) : null };
      }),
    );
  }

  private pendingOf(row: LimitRow): PlayerLimit['pending'] {
    if (!row.pending || !row.requested_at) return null;
    return {
      value: row.pending_value,
      requestedAt: row.requested_at.toISOString(),
      confirmableAt: new Date(row.requested_at.getTime() + this.delayMs()).toISOString(),
    };
  }

  /** Sets each listed limit: stricter at once, looser as a raise waiting for the delay and a confirmation. */
  async update(playerId: number, changes: { key: LimitKey; value: number | null }[]) {
    if (new Set(changes.map((c) => c.key)).size !== changes.length) throw new AppError(Code.InvalidRequest, 400, {}, 'Invalid request: a limit is listed twice');
    const requestedAt = new Date(this.deps.now());
    await withTransaction(this.deps.db, async (tx) => {
      const rows = new Map((await readLimits(tx, playerId, true)).map((row) => [row.key, row]));
      for (const { key, value } of changes) {
        const current = rows.get(key)?.value ?? null;
        if (value === current || isStricter(current, value)) await applyLimit(tx, playerId, key, value);
        else await requestRaise(tx, playerId, key, value, requestedAt);
      }
    });
  }

  /** Applies a waiting raise once LIMIT_INCREASE_DELAY_H has passed since it was asked for. */
  async confirm(playerId: number, key: LimitKey) {
    const nowMs = this.deps.now();
    await withTransaction(this.deps.db, async (tx) => {
      const row = (await readLimits(tx, playerId, true)).find((r) => r.key === key);
      if (!row?.pending || !row.requested_at) throw new AppError(Code.NoPendingLimit, 404, { limit_key: key });
      const dueMs = row.requested_at.getTime() + this.delayMs();
      if (nowMs < dueMs) throw new AppError(Code.LimitRaiseNotDue, 409, { limit_key: key, at: new Date(dueMs).toISOString() });
      await applyLimit(tx, playerId, key, row.pending_value);
    });
  }

  /**
   * Inside the cash in's transaction, before its ledger move: refuses a cash in above what the
   * strictest deposit limit still allows, or after the session time limit. The limit rows are
   * locked until the transaction ends, so two cash ins are counted one after the other.
   */
  async checkCashIn(tx: Queryable, playerId: number, amountCents: number, sessionStartedAt: Date) {
    const rows = await readLimits(tx, playerId, true);
    this.checkSessionTime(rows, sessionStartedAt);
    const tightest = await this.tightest(tx, playerId, rows, 'deposit', depositedSince);
    if (tightest && amountCents > tightest.left) throw this.refusal(DEPOSIT_CODES, tightest);
  }

  /** Before a spin is sent: refuses it once the strictest loss limit cannot cover its bet, or after the session time limit. */
  async checkSpin(db: Queryable, playerId: number, betCents: number, sessionStartedAt: Date) {
    const rows = await readLimits(db, playerId);
    this.checkSessionTime(rows, sessionStartedAt);
    const tightest = await this.tightest(db, playerId, rows, 'loss', lostSince);
    if (tightest && (tightest.left <= 0 || tightest.left < betCents)) throw this.refusal(LOSS_CODES, tightest);
  }

  private checkSessionTime(rows: LimitRow[], startedAt: Date) {
    const minutes = rows.find((r) => r.key === 'session_minutes')?.value;
    if (minutes && this.deps.now() - startedAt.getTime() >= minutes * MINUTE_MS) {
      throw new AppError(Code.SessionTimeLimit, 409, { limit_key: 'session_minutes', minutes });
    }
  }

  /** The limit of a kind with the least left now (the lowest applicable one), if any is set. */
  private async tightest(db: Queryable, playerId: number, rows: LimitRow[], kind: 'deposit' | 'loss', usedSince: typeof depositedSince) {
    const nowMs = this.deps.now();
    let tightest: Allowance | undefined;
    for (const row of rows) {
      if (row.value === null || !row.key.startsWith(kind)) continue;
      const key = row.key as MoneyKey;
      const bounds = periodBounds(limitPeriod(key) as 'day' | 'week' | 'month', nowMs);
      const left = row.value - (await usedSince(db, playerId, bounds.start));
      if (!tightest || left < tightest.left) tightest = { key, limit: row.value, left, resets: bounds.end };
    }
    return tightest;
  }

  private refusal(codes: Record<'day' | 'week' | 'month', number>, allowance: Allowance) {
    const period = limitPeriod(allowance.key) as 'day' | 'week' | 'month';
    return new AppError(codes[period], 409, {
      limit_key: allowance.key,
      limit: formatCents(allowance.limit),
      left: formatCents(Math.max(0, allowance.left)),
      left_cents: Math.max(0, allowance.left),
      resets: allowance.resets.toISOString(),
    });
  }
}
