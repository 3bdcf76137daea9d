/** Player protection constants shared by the server and the web app (issue 28; docs/sessions.md). */
import { Code } from './codes.js';

/**
 * Every limit a player can set. Money limits are integer cents; `session_minutes` is minutes of one
 * play session. Periods are calendar periods in UTC (a day from 00:00, a week from Monday, a month
 * from the 1st).
 */
export const LIMIT_KEYS = ['deposit_day', 'deposit_week', 'deposit_month', 'loss_day', 'loss_week', 'loss_month', 'session_minutes'] as const;
export type LimitKey = (typeof LIMIT_KEYS)[number];

/** The period a money limit counts over; `session` for the session time limit. */
export type LimitPeriod = 'day' | 'week' | 'month' | 'session';

export const limitPeriod = (key: LimitKey): LimitPeriod => (key === 'session_minutes' ? 'session' : (key.split('_')[1] as LimitPeriod));

/** The largest limit value accepted: 1,000,000,000.00 in cents (or minutes, which never get near). */
export const MAX_LIMIT_VALUE = 100_000_000_000;

/**
 * The refusals a player's own limits answer (codes.ts): the game screen keeps them on the screen,
 * in words, until play goes on.
 */
export const PROTECTION_CODES: readonly number[] = [
  Code.DepositLimitDay,
  Code.DepositLimitWeek,
  Code.DepositLimitMonth,
  Code.LossLimitDay,
  Code.LossLimitWeek,
  Code.LossLimitMonth,
  Code.SessionTimeLimit,
];

/**
 * The breaks a player can take: a cool-off (24 hours, 7 days, 1–3 months) or a self-exclusion
 * (6 months, 1 year, 5 years). Months are calendar months in UTC. Neither can be shortened by the
 * player; only an admin can end a self-exclusion early, with a reason.
 */
export const BREAK_PERIODS = {
  cool_off_24h: { kind: 'cool_off', hours: 24 },
  cool_off_7d: { kind: 'cool_off', hours: 7 * 24 },
  cool_off_1m: { kind: 'cool_off', months: 1 },
  cool_off_2m: { kind: 'cool_off', months: 2 },
  cool_off_3m: { kind: 'cool_off', months: 3 },
  self_exclusion_6m: { kind: 'self_exclusion', months: 6 },
  self_exclusion_1y: { kind: 'self_exclusion', months: 12 },
  self_exclusion_5y: { kind: 'self_exclusion', months: 60 },
} as const satisfies Record<string, { kind: BreakKind; hours?: number; months?: number }>;
export type BreakPeriod = keyof typeof BREAK_PERIODS;
export type BreakKind = 'cool_off' | 'self_exclusion';

/** When a break taken at `startMs` ends. */
export function breakEnd(period: BreakPeriod, startMs: number): Date {
  const length: { hours?: number; months?: number } = BREAK_PERIODS[period];
  if (length.hours) return new Date(startMs + length.hours * 3_600_000);
  const start = new Date(startMs);
  const end = new Date(startMs);
  end.setUTCMonth(start.getUTCMonth() + (length.months ?? 0));
  // 31 January + 1 month: the last day of February, not 3 March.
  if (end.getUTCDate() !== start.getUTCDate()) end.setUTCDate(0);
  return end;
}

/** The reality check interval's bounds and default (minutes of play; the player chooses). */
export const REALITY_CHECK_MINUTES = { min: 1, max: 1440, default: 60 } as const;
