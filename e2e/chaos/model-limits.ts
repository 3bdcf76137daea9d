/**
 * The checker's model of the players' own limits (issue 28): from what each client was told.
 *
 * A limit applies from the moment its `PUT /api/player/limits` was acknowledged (a lowered or first
 * limit applies at once; a raise waits a day and more, longer than any run, so the strictest value
 * acknowledged is the one in effect; a PUT without an answer is not counted on). Then:
 * - deposit: the cash ins that happened (acknowledged ones, and unanswered ones the ledger holds by
 *   their key), net of the ones the machine refused and refunded, never pass the limit within its
 *   calendar period (UTC day, week from Monday, month);
 * - loss: no game with a stake starts once the period's net loss of the games played (the model's
 *   games) leaves less than its bet under the limit.
 */
import type { GameRecord, History, HistoryOp, LedgerOp, MoneyLimitKey, Observed } from './history.js';

type OpOf<T extends HistoryOp['type']> = Extract<HistoryOp, { type: T }>;
const cents = (n: number) => (n / 100).toFixed(2);
const DAY_MS = 86_400_000;

/** The start of the calendar period (UTC) a limit counts over, at `ms`. */
function periodStart(key: MoneyLimitKey, ms: number): number {
  const d = new Date(ms);
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  if (key.endsWith('_day')) return day;
  if (key.endsWith('_week')) return day - ((d.getUTCDay() + 6) % 7) * DAY_MS;
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** The limits of one kind that surely applied at `ms`: the strictest value acknowledged by then. */
function limitsAt(puts: OpOf<'limits'>[], kind: 'deposit' | 'loss', ms: number): Map<MoneyLimitKey, number> {
  const found = new Map<MoneyLimitKey, number>();
  for (const put of puts) {
    if (put.outcome !== 'ok' || put.ackedAt === undefined || put.ackedAt > ms) continue;
    for (const { key, value } of put.limits) if (key.startsWith(kind)) found.set(key, Math.min(found.get(key) ?? value, value));
  }
  return found;
}

interface HappenedCashIn {
  key: string;
  amountCents: number;
  /** Net of what the machine refused and the wallet got back. */
  netCents: number;
  sentAt: number;
  /** When it counted: its booking (or the send, for an acknowledged one missing from the ledger). */
  atMs: number;
  order: number;
}

function happenedCashIns(player: string, ops: OpOf<'cashIn'>[], ledger: LedgerOp[]): HappenedCashIn[] {
  const out: HappenedCashIn[] = [];
  for (const op of ops) {
    const booked = ledger.find((o) => o.player === player && o.key === `cashin:${op.key}`);
    if (op.outcome !== 'ok' && !booked) continue;
    const refunded = booked ? ledger.filter((o) => o.player === player && o.key !== null && o.key.startsWith(`refund:ci-${booked.id}`)).reduce((s, o) => s + o.amountCents, 0) : 0;
    out.push({ key: op.key, amountCents: op.amountCents, netCents: op.amountCents - refunded, sentAt: op.sentAt, atMs: booked?.atMs ?? op.sentAt, order: booked?.id ?? Number.MAX_SAFE_INTEGER });
  }
  return out.sort((a, b) => a.order - b.order);
}

function depositViolations(player: string, puts: OpOf<'limits'>[], cashIns: HappenedCashIn[]): string[] {
  const violations: string[] = [];
  cashIns.forEach((c, i) => {
    for (const [key, limit] of limitsAt(puts, 'deposit', c.sentAt)) {
      const start = periodStart(key, c.atMs);
      const used = cashIns.slice(0, i).filter((e) => periodStart(key, e.atMs) === start).reduce((s, e) => s + e.netCents, 0);
      if (used + c.amountCents > limit)
        violations.push(`${player}: cash in ${c.key} of ${cents(c.amountCents)} went past the ${key} limit of ${cents(limit)} (${cents(used)} cashed in before it in the period)`);
    }
  });
  return violations;
}

function lossViolations(player: string, puts: OpOf<'limits'>[], games: GameRecord[]): string[] {
  const violations: string[] = [];
  games.forEach((g, i) => {
    if (g.betCents === 0) return;
    for (const [key, limit] of limitsAt(puts, 'loss', g.startedMs)) {
      const start = periodStart(key, g.startedMs);
      const lost = Math.max(0, games.slice(0, i).filter((e) => periodStart(key, e.startedMs) === start).reduce((s, e) => s + e.betCents - e.winCents, 0));
      if (limit - lost <= 0 || limit - lost < g.betCents)
        violations.push(`${player}: game ${g.gameId} (bet ${cents(g.betCents)}) started with the ${key} limit of ${cents(limit)} reached (${cents(lost)} lost before it in the period)`);
    }
  });
  return violations;
}

export function limitViolations(history: History, observed: Observed, player: string): string[] {
  const ops = history.ops.filter((o) => o.player === player);
  const puts = ops.filter((o): o is OpOf<'limits'> => o.type === 'limits');
  if (puts.length === 0) return [];
  const cashIns = happenedCashIns(player, ops.filter((o): o is OpOf<'cashIn'> => o.type === 'cashIn'), observed.ledger);
  const games = observed.records.filter((g) => g.player === player).sort((a, b) => a.startedMs - b.startedMs);
  return [...depositViolations(player, puts, cashIns), ...lossViolations(player, puts, games)];
}
