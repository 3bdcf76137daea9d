import { describe, expect, it } from 'vitest';
import { acknowledged, closingLine, minimumsFor, shortfalls, type KillTarget } from './report.js';
import type { HistoryOp } from './history.js';

describe('the fault suite figures', () => {
  it('scales the 300 s minimums to the run, at least one kill of each kind', () => {
    expect(minimumsFor(300)).toEqual({ operations: 1_000, spins: 300, cashOuts: 100, killsPerKind: 2 });
    expect(minimumsFor(60)).toEqual({ operations: 200, spins: 60, cashOuts: 20, killsPerKind: 1 });
  });

  it('counts acknowledged operations only, and fails a run below a minimum', () => {
    const history: HistoryOp[] = [
      { type: 'spin', player: 'a', commandId: 's1', outcome: 'ok', sends: 1, sentAt: 0, ackedAt: 1 },
      { type: 'spin', player: 'a', commandId: 's2', outcome: 'unknown', sends: 2, sentAt: 0 },
      { type: 'cashOut', player: 'a', amountCents: 5, at: 2 },
      { type: 'cashier', player: 'a', direction: 'deposit', key: 'k', amountCents: 5, outcome: 'refused', sentAt: 3 },
    ];
    expect(acknowledged(history)).toEqual({ total: 2, cashIns: 0, spins: 1, cashOuts: 1, promotions: 0, operator: 0 });
    // A hand pay approval the console answered is the operator's; an unanswered one is not.
    const approval = { type: 'handPayApproval', player: 'a', handPayId: 1, amountCents: 500, signer: 'operator:staff1', sentAt: 4 } as const;
    const withApprovals: HistoryOp[] = [...history, { ...approval, outcome: 'ok', paid: true, ackedAt: 5 }, { ...approval, outcome: 'unknown' }];
    expect(acknowledged(withApprovals)).toMatchObject({ total: 3, operator: 1 });
    const acked = acknowledged(history);
    const kills = new Map<KillTarget, number>([['server', 2], ['cabinets', 1]]);
    expect(shortfalls(acked, kills, minimumsFor(300))).toEqual([
      'acknowledged operations 2 < 1000',
      'acknowledged spins 1 < 300',
      'acknowledged cash outs 1 < 100',
      'kills of cabinets 1 < 2',
      'kills of media 0 < 2',
      'kills of postgres 0 < 2',
      'kills of group 0 < 2',
    ]);
    expect(closingLine(acked, kills, 0, [3_000, 1_000, 2_000])).toBe(
      'chaos: 2 acknowledged operations (cash ins 0, spins 1, cash outs 1, promotions 0, operator 0), 3 kills (server 2, cabinets 1, media 0, postgres 0, group 0), 0 violations, recovery p50/max 2.0/3.0 s',
    );
  });
});
