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
