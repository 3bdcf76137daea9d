/**
 * The checker on planted histories with hand pays (issue 27) and the players' own limits (issue 28):
 * a correct history passes, and each planted violation fails it.
 */
import { describe, expect, it } from 'vitest';
import type { HistoryOp } from './history.js';
import { op, verdict, type World } from './checker-world.js';

/**
 * Ann's win of 5.00 in game 1-2 is at the hand pay limit: the machine's cash out after it is a
 * hand pay command that paid the whole meter (33.00), 5.00 held by the house and 28.00 to the wallet;
 * staff1's approval, acknowledged as paid, paid the 5.00 before game 1-3 started.
 */
function handPay(w: World, approval: Partial<Extract<HistoryOp, { type: 'handPayApproval' }>> = {}) {
  w.history.handPayLimitCents = 500;
  w.observed.payouts[0] = { ...w.observed.payouts[0]!, commandId: 'hp-1', type: 'hand_pay' };
  w.observed.ledger = w.observed.ledger.filter((o) => o.id !== 103);
  w.observed.ledger.push(op(103, 'cash_out', 'hp-1', 2_800, { cash: 2_800 }), op(113, 'hand_pay', 'hand-pay:7', 500, { cash: 500 }));
  w.observed.handPays = [{ id: 7, machineId: 1, player: 'ann', amountCents: 500, status: 'paid', requestedMs: 2.2, paidMs: 2.5 }];
  w.history.ops.push({ type: 'handPayApproval', player: 'ann', handPayId: 7, amountCents: 500, signer: 'operator:staff1', outcome: 'ok', paid: true, sentAt: 2.4, ackedAt: 2.6, ...approval });
}

/** The hand pay was never paid: no payment in the ledger, the row still waits, the wallet without it. */
function unpaid(w: World) {
  w.observed.ledger = w.observed.ledger.filter((o) => o.id !== 113);
  w.observed.wallets.ann!.cash -= 500;
  w.observed.handPays[0] = { ...w.observed.handPays[0]!, status: 'waiting', paidMs: null };
}

describe('the fault suite checker, hand pays', () => {
  it('passes a hand pay held off the cash out and paid once on an acknowledged approval', () => {
    expect(verdict(handPay).violations).toEqual([]);
  });

  it('fails a hand pay paid twice', () => {
    const v = verdict((w) => {
      handPay(w);
      w.observed.ledger.push(op(114, 'hand_pay', 'hand-pay:7', 500, { cash: 500 }));
      w.observed.wallets.ann!.cash += 500;
    });
    expect(v.violations).toContainEqual('ann: hand pay 7 of 5.00, approved by operator:staff1 and acknowledged as paid, was paid 2 times');
    expect(v.violations).toContainEqual(expect.stringMatching(/ann: wallet cash is 167\.00, the model says 162\.00/));
  });

  it('fails an acknowledged hand pay never paid (and its machine played on while it waited)', () => {
    const v = verdict((w) => (handPay(w), unpaid(w)));
    expect(v.violations).toContainEqual('ann: hand pay 7 of 5.00, approved by operator:staff1 and acknowledged as paid, was paid 0 times');
    expect(v.violations).toContainEqual('ann: hand pay 7 of 5.00 was never paid (its machine stays locked)');
    expect(v.violations).toContainEqual('ann: machine 1 played game 1-3 while hand pay 7 (game 1-2) waited');
    expect(v.violations).toContainEqual(expect.stringMatching(/ann: wallet cash is 157\.00, the model says 162\.00/));
  });

  it('passes an unanswered approval that paid once, fails one that paid twice', () => {
    const unanswered = { outcome: 'unknown' as const, paid: undefined, ackedAt: undefined };
    expect(verdict((w) => handPay(w, unanswered)).violations).toEqual([]);
    const twice = verdict((w) => {
      handPay(w, unanswered);
      w.observed.ledger.push(op(114, 'hand_pay', 'hand-pay:7', 500, { cash: 500 }));
      w.observed.wallets.ann!.cash += 500;
    });
    expect(twice.violations).toContainEqual('ann: hand pay 7 of 5.00, its approval unanswered, was paid 2 times');
  });

  it('fails a hand pay paid with no approval that could have paid it (a first signature only)', () => {
    const v = verdict((w) => handPay(w, { paid: false }));
    expect(v.violations).toContainEqual('ann: hand pay 7 of 5.00 was paid 1 times with no approval that could have paid it');
  });

  it('fails a machine that played while its hand pay waited', () => {
    const v = verdict((w) => (handPay(w), (w.observed.handPays[0]!.paidMs = 3.5)));
    expect(v.violations).toEqual(['ann: machine 1 played game 1-3 while hand pay 7 (game 1-2) waited']);
  });

  it('passes a cash in booked during the winning spin, fails one booked after its record', () => {
    const cashInAt = (atMs: number) =>
      verdict((w) => {
        handPay(w);
        w.observed.records[1] = { ...w.observed.records[1]!, recordedMs: 2.2 };
        w.observed.ledger.find((o) => o.key === 'cashin:k3')!.atMs = atMs;
      });
    expect(cashInAt(2.1).violations).toEqual([]);
    expect(cashInAt(2.3).violations).toEqual(['ann: machine 1 took cash in cashin:k3 of 20.00 while hand pay 7 (game 1-2) waited']);
  });

  it("passes the winning round's own free spin played while its hand pay waited (the round plays out first)", () => {
    const v = verdict((w) => {
      handPay(w);
      w.observed.handPays[0]!.paidMs = 3.5;
      w.observed.records[2] = { ...w.observed.records[2]!, gameId: '1-2-f1' };
    });
    expect(v.violations).toEqual([]);
  });

  it("fails a hand pay that holds less than the round's wins at the limit (a free spin's big win not added)", () => {
    const v = verdict((w) => {
      handPay(w);
      w.observed.records[2] = { ...w.observed.records[2]!, gameId: '1-2-f1', winCents: 500 };
    });
    expect(v.violations).toContainEqual('ann: on machine 1 game 1-2 won 5.00, 1-2-f1 won 5.00, at or above the hand pay limit, and no hand pay of 10.00 holds it');
  });

  it('fails a win at the limit that no hand pay held (paid out as credits instead)', () => {
    const v = verdict((w) => void (w.history.handPayLimitCents = 500));
    expect(v.violations).toContainEqual('ann: on machine 1 game 1-2 won 5.00, at or above the hand pay limit, and no hand pay of 5.00 holds it');
    expect(v.violations).toContainEqual('ann: cash outs booked 52.00 to the wallet, the machine paid 52.00 of which hand pays held 5.00');
  });
});

/** Ann's limits, acknowledged before her first cash in (sent at 2, booked as operation 102). */
const limits = (w: World, set: { key: 'deposit_week' | 'loss_week'; value: number }[], outcome: 'ok' | 'unknown' = 'ok', ackedAt = 0.5) =>
  w.history.ops.unshift({ type: 'limits', player: 'ann', limits: set, outcome, sentAt: 0, ...(outcome === 'ok' ? { ackedAt } : {}) });

describe('the fault suite checker, player limits', () => {
  it('passes cash ins up to the deposit limit (the unanswered one that happened counts)', () => {
    expect(verdict((w) => limits(w, [{ key: 'deposit_week', value: 5_000 }])).violations).toEqual([]);
  });

  it('fails a cash in past the deposit limit', () => {
    const v = verdict((w) => limits(w, [{ key: 'deposit_week', value: 4_999 }]));
    expect(v.violations).toEqual(['ann: cash in k3 of 20.00 went past the deposit_week limit of 49.99 (30.00 cashed in before it in the period)']);
  });

  it('fails a cash in past a limit lowered after the first cash in (lowering applies at once)', () => {
    const v = verdict((w) => {
      limits(w, [{ key: 'deposit_week', value: 10_000 }]);
      limits(w, [{ key: 'deposit_week', value: 3_500 }], 'ok', 5);
    });
    expect(v.violations).toEqual(['ann: cash in k3 of 20.00 went past the deposit_week limit of 35.00 (30.00 cashed in before it in the period)']);
  });

  it('counts on neither an unanswered limit nor one acknowledged after the cash in', () => {
    expect(verdict((w) => limits(w, [{ key: 'deposit_week', value: 4_000 }], 'unknown')).violations).toEqual([]);
    expect(verdict((w) => limits(w, [{ key: 'deposit_week', value: 4_000 }], 'ok', 11)).violations).toEqual([]);
  });

  it('fails a spin accepted after the loss limit was reached, passes one the limit still covers', () => {
    expect(verdict((w) => limits(w, [{ key: 'loss_week', value: 150 }])).violations).toEqual([
      'ann: game 1-2 (bet 1.00) started with the loss_week limit of 1.50 reached (1.00 lost before it in the period)',
    ]);
    expect(verdict((w) => limits(w, [{ key: 'loss_week', value: 200 }])).violations).toEqual([]);
  });
});
