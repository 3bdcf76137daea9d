/**
 * The fault suite's figures: what was acknowledged, the minimums a run must reach (issue 30: for
 * 300 s, 1,000 acknowledged operations, 300 spins, 100 cash outs, 2 kills of each kind; scaled to
 * the run's length), and its one closing line.
 */
import type { HistoryOp } from './history.js';

export const KILL_TARGETS = ['server', 'cabinets', 'media', 'postgres', 'everything'] as const;
export type KillTarget = (typeof KILL_TARGETS)[number];
/** How the closing line names each kind of kill. */
const KILL_NAMES: Record<KillTarget, string> = { server: 'server', cabinets: 'cabinets', media: 'media', postgres: 'postgres', everything: 'group' };

interface Minimums {
  operations: number;
  spins: number;
  cashOuts: number;
  killsPerKind: number;
}

export function minimumsFor(seconds: number): Minimums {
  const scale = seconds / 300;
  return {
    operations: Math.ceil(1_000 * scale),
    spins: Math.ceil(300 * scale),
    cashOuts: Math.ceil(100 * scale),
    killsPerKind: Math.max(1, Math.ceil(2 * scale)),
  };
}

interface Acknowledged {
  total: number;
  cashIns: number;
  spins: number;
  cashOuts: number;
  promotions: number;
  operator: number;
}

/** Operations the clients were told happened (every cash out they were told about counts). */
export function acknowledged(history: readonly HistoryOp[]): Acknowledged {
  const n = (type: HistoryOp['type']) => history.filter((o) => o.type === type && (o.type === 'cashOut' || ('outcome' in o && o.outcome === 'ok'))).length;
  // The operator's: deposits and withdrawals, and hand pay approvals through the console.
  const counts = { cashIns: n('cashIn'), spins: n('spin'), cashOuts: n('cashOut'), promotions: n('promotion'), operator: n('cashier') + n('handPayApproval') };
  return { total: counts.cashIns + counts.spins + counts.cashOuts + counts.promotions + counts.operator, ...counts };
}

/** What the run fell short of; empty when it reached every minimum. */
export function shortfalls(acked: Acknowledged, kills: ReadonlyMap<KillTarget, number>, min: Minimums): string[] {
  const short: string[] = [];
  if (acked.total < min.operations) short.push(`acknowledged operations ${acked.total} < ${min.operations}`);
  if (acked.spins < min.spins) short.push(`acknowledged spins ${acked.spins} < ${min.spins}`);
  if (acked.cashOuts < min.cashOuts) short.push(`acknowledged cash outs ${acked.cashOuts} < ${min.cashOuts}`);
  for (const target of KILL_TARGETS) {
    const k = kills.get(target) ?? 0;
    if (k < min.killsPerKind) short.push(`kills of ${KILL_NAMES[target]} ${k} < ${min.killsPerKind}`);
  }
  return short;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? NaN;
}

export function closingLine(acked: Acknowledged, kills: ReadonlyMap<KillTarget, number>, violations: number, recoveriesMs: number[]): string {
  const k = KILL_TARGETS.map((t) => kills.get(t) ?? 0);
  const sorted = [...recoveriesMs].sort((a, b) => a - b);
  const s = (ms: number) => (Number.isNaN(ms) ? 'n/a' : (ms / 1000).toFixed(1));
  return (
    `chaos: ${acked.total} acknowledged operations (cash ins ${acked.cashIns}, spins ${acked.spins}, cash outs ${acked.cashOuts}, promotions ${acked.promotions}, operator ${acked.operator}), ` +
    `${k.reduce((a, b) => a + b, 0)} kills (${KILL_TARGETS.map((t, i) => `${KILL_NAMES[t]} ${k[i]}`).join(', ')}), ` +
    `${violations} violations, recovery p50/max ${s(percentile(sorted, 0.5))}/${s(sorted.at(-1) ?? NaN)} s`
  );
}
