/**
 * The calendar periods the money limits count over, in UTC: a day from 00:00, a week from Monday
 * 00:00, a month from the 1st. A period's end is when its limit "resets" (docs/spec-decisions.md).
 */
import type { LimitPeriod } from '@reel/protocol';

const DAY_MS = 86_400_000;

interface PeriodBounds {
  start: Date;
  end: Date;
}

export function periodBounds(period: Exclude<LimitPeriod, 'session'>, nowMs: number): PeriodBounds {
  const now = new Date(nowMs);
  const dayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (period === 'day') return { start: new Date(dayStart), end: new Date(dayStart + DAY_MS) };
  if (period === 'week') {
    const sinceMonday = (now.getUTCDay() + 6) % 7;
    const start = dayStart - sinceMonday * DAY_MS;
    return { start: new Date(start), end: new Date(start + 7 * DAY_MS) };
  }
  return {
    start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
}
