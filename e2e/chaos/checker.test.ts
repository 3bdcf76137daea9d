/**
 * The checker on planted histories: a clean run passes, and each kind of violation fails it.
 * No processes: the history (what the clients were told) and the observed state are plain data
 * (checker-world.ts).
 */
import { describe, expect, it } from 'vitest';
import { zeroMeters } from './history.js';
import { game, op, parts, verdict } from './checker-world.js';

describe('the fault suite checker', () => {
  it('passes a clean history, unanswered operations that happened once or not at all included', () => {
    const v = verdict();
    expect(v.violations).toEqual([]);
    expect(v.centsChecked).toBeGreaterThan(16_200);
  });

  it('fails a double credit: one acknowledged cash in booked twice, the machine credited twice', () => {
    const v = verdict(({ observed }) => {
      observed.ledger.push(op(107, 'cash_in', 'cashin:k1', 3_000, { cash: -3_000 }));
      observed.wallets.ann!.cash -= 3_000;
      observed.memories[1]!.meters.cashInCents += 3_000;
    });
    expect(v.violations).toContainEqual(expect.stringMatching(/ann: acknowledged cash in k1 of 30\.00 happened 2 times/));
    expect(v.violations).toContainEqual(expect.stringMatching(/machine 1: meter cashInCents is 8000, the model says 5000/));
  });

  it('fails a lost cash out: the client was told 33.00 came back, the wallet never got it', () => {
    const v = verdict(({ observed }) => {
      observed.ledger = observed.ledger.filter((o) => o.id !== 103);
      observed.wallets.ann!.cash -= 3_300;
    });
    expect(v.violations).toContainEqual(expect.stringMatching(/ann: cash outs booked 19\.00 to the wallet, the machine paid 52\.00/));
    expect(v.violations).toContainEqual(expect.stringMatching(/ann: wallet cash is 129\.00, the model says 162\.00/));
  });

  it('fails a lost cash out the machine never paid', () => {
    const v = verdict(({ observed }) => void (observed.payouts = observed.payouts.filter((c) => c.commandId !== 'co-S1-1')));
    expect(v.violations).toContainEqual(expect.stringMatching(/ann: acknowledged cash out of 33\.00 is not among the machine's cash outs and settlements/));
  });

  it('fails a spin applied twice (its command re-sent, played again)', () => {
    const v = verdict(({ observed }) => {
      observed.records.push({ ...game('1-4', 's1', 100, 0) });
      observed.memories[1]!.meters.coinInCents += 100;
      observed.memories[1]!.meters.gamesPlayed += 1;
    });
    expect(v.violations).toContainEqual(expect.stringMatching(/ann: acknowledged spin s1 \(sent 2 times\) is 2 games/));
    expect(v.violations).toContainEqual(expect.stringMatching(/spin command ann:s1 produced 2 games/));
  });

  it('fails meter drift in a cabinet\'s critical memory', () => {
    const v = verdict(({ observed }) => void (observed.memories[1]!.meters.coinOutCents += 5));
    expect(v.violations).toEqual(['machine 1: meter coinOutCents is 505, the model says 500 (off by 5)']);
  });

  it('fails a promotion paid twice', () => {
    const v = verdict(({ observed }) => {
      observed.ledger.push(op(108, 'bonus', 'b1', 1_000, { bonus: 1_000 }));
      observed.wallets.ann!.bonus += 1_000;
    });
    expect(v.violations).toContainEqual(expect.stringMatching(/ann: acknowledged bonus b1 happened 2 times/));
  });

  it('fails a promotion credited under a key no client sent', () => {
    const v = verdict(({ observed }) => {
      observed.ledger.push(op(108, 'bonus', 'nobody-asked', 1_000, { bonus: 1_000 }));
      observed.wallets.ann!.bonus += 1_000;
    });
    expect(v.violations).toContainEqual(expect.stringMatching(/ledger operation 108 \(bonus of 10\.00 for ann, key nobody-asked\) is explained by no client operation/));
    expect(v.violations).toContainEqual(expect.stringMatching(/ann: wallet bonus is 10\.00, the model says 0\.00/));
  });

  it('fails an acknowledged operation missing from the ledger', () => {
    const v = verdict(({ observed }) => {
      observed.ledger = observed.ledger.filter((o) => o.id !== 104);
      observed.wallets.ann!.cash -= 5_000;
    });
    expect(v.violations).toContainEqual(expect.stringMatching(/ann: acknowledged operator deposit d1 of 50\.00 happened 0 times/));
    expect(v.violations).toContainEqual(expect.stringMatching(/ann: wallet cash is 112\.00, the model says 162\.00/));
  });

  it('fails an unacknowledged operation applied twice', () => {
    const v = verdict(({ observed }) => {
      observed.ledger.push(op(109, 'cash_in', 'cashin:k3', 2_000, { cash: -2_000 }));
      observed.wallets.ann!.cash -= 2_000;
    });
    expect(v.violations).toContainEqual(expect.stringMatching(/ann: unacknowledged cash in k3 of 20\.00 happened 2 times/));
  });

  it('fails a refused operation that happened', () => {
    const v = verdict(({ observed }) => {
      observed.ledger.push(op(110, 'discount', 'p2', 2_000, { discount: 2_000 }));
      observed.wallets.ann!.discount += 2_000;
    });
    expect(v.violations).toContainEqual(expect.stringMatching(/ann: refused discount p2 happened 1 times/));
  });

  it('fails a game the client saw that the records hold with another win', () => {
    const v = verdict(({ observed }) => void (observed.records[1]!.winCents = 400));
    expect(v.violations).toContainEqual(expect.stringMatching(/ann: game 1-2 \(bet 1\.00, win 5\.00\) that the client was told about is recorded 1 times: bet 1\.00 win 4\.00/));
  });

  it('fails a game the cabinet played that never reached the records', () => {
    const v = verdict(({ observed }) => void (observed.memories[1]!.unackedGameIds = ['1-9']));
    expect(v.violations).toContainEqual('machine 1: games played and missing from the records: 1-9');
  });

  it('fails a jackpot game stored without its jackpot (issue 23: killed between the record and the payment)', () => {
    const v = verdict(({ history, observed }) => {
      observed.records[0]!.jackpotHit = true;
      const seen = history.ops.find((o) => o.type === 'cycle' && o.gameId === '1-1');
      if (seen?.type === 'cycle') seen.jackpotHit = true;
    });
    expect(v.violations).toEqual(['ann: jackpot game 1-1 on machine 1 was paid 0 times']);
  });

  it('passes a jackpot paid once, to the cash part', () => {
    const v = verdict(({ history, observed }) => {
      observed.records[0]!.jackpotHit = true;
      const seen = history.ops.find((o) => o.type === 'cycle' && o.gameId === '1-1');
      if (seen?.type === 'cycle') seen.jackpotHit = true;
      observed.ledger.push(op(111, 'jackpot', 'jackpot:1:1-1:S1', 25_000, { cash: 25_000 }));
      observed.wallets.ann!.cash += 25_000;
    });
    expect(v.violations).toEqual([]);
  });

  it('fails a malfunction, unless the run deleted that memory on purpose before it', () => {
    const malfunction = { id: 1, at: 50, machineId: 1, sessionId: 'S1', reason: 'reconnect', recordsCents: 0, machineCents: 0, paidCents: 0, missingGames: [] };
    expect(verdict(({ observed }) => void observed.malfunctions.push(malfunction)).violations).toEqual([
      'malfunction 1 on machine 1 (session S1, reconnect): records 0.00, machine 0.00, paid 0.00',
    ]);
    const damaged = verdict(({ history, observed }) => {
      observed.malfunctions.push(malfunction);
      history.damaged = { machineId: 1, at: 40 };
    });
    expect(damaged.violations).toEqual([]);
    expect(damaged.malfunctions).toBe(1);
  });

  it('fails a cash in that drew the wallet in another order than the spend order', () => {
    const v = verdict(({ observed }) => void (observed.ledger[1]!.parts = parts({ cash: -3_000 })));
    expect(v.violations).toContainEqual(expect.stringMatching(/ann: cash in k1 of 30\.00 took cash 30\.00 from the wallet; the model says bonus 10\.00, cash 20\.00/));
  });

  it('after a memory deleted on purpose: the settlement from the records must pay what the model says, the new memory is not compared', () => {
    const settled = (paid: number) =>
      verdict(({ history, observed }) => {
        history.damaged = { machineId: 1, at: 40 };
        // The settlement tells the player as a cash out.
        history.ops.push({ type: 'cashOut', player: 'ann', amountCents: paid, at: 50 });
        observed.malfunctions.push({ id: 1, at: 50, machineId: 1, sessionId: 'S1', reason: 'memory', recordsCents: 1_900, machineCents: 0, paidCents: paid, missingGames: [] });
        observed.payouts = observed.payouts.filter((c) => c.commandId !== 'co-S1-2');
        observed.ledger = observed.ledger.filter((o) => o.id !== 106);
        observed.ledger.push(op(112, 'hand_pay', 'malfunction:S1', paid, { cash: paid }));
        observed.wallets.ann!.cash += paid - 1_900;
        observed.memories[1] = { memoryId: 'new', unackedGameIds: [], meters: zeroMeters() };
      });
    expect(settled(1_900).violations).toEqual([]);
    expect(settled(1_800).violations).toEqual([
      'ann: cash outs and settlements booked 51.00 to the wallet; the model says 52.00',
      'ann: wallet cash is 161.00, the model says 162.00 (off by -1.00)',
    ]);
  });
});
