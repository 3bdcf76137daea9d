import { describe, expect, it } from 'vitest';
import { ReceiverLoss } from './receiver-loss.js';

/**
 * A receiver in the style of Chrome's statistics: 125 packets/s sent from sequence 65,000 (so the
 * extended sequence number wraps), each delayed 30–70 ms (reordering) and `lostEvery`-th one never
 * arriving. Reports every `reportEveryMs` carry cumulative lost = expected − received and the
 * extended highest sequence number seen.
 */
function simulate(opts: { seconds: number; reportEveryMs: number; lostEvery?: number }): ReceiverLoss {
  const loss = new ReceiverLoss();
  const arrivals: { atMs: number; seq: number }[] = [];
  let rand = 1;
  const random = () => (rand = (rand * 48_271) % 0x7fff_ffff) / 0x7fff_ffff;
  for (let i = 0; i < opts.seconds * 125; i++) {
    if (opts.lostEvery && i % opts.lostEvery === opts.lostEvery - 1) continue;
    arrivals.push({ atMs: i * 8 + 30 + random() * 40, seq: 65_000 + i });
  }
  for (let t = opts.reportEveryMs; t <= opts.seconds * 1000; t += opts.reportEveryMs) {
    const got = arrivals.filter((a) => a.atMs <= t);
    if (got.length === 0) continue;
    const highest = Math.max(...got.map((a) => a.seq));
    const expected = highest - 65_000 + 1;
    loss.add({ packetsLost: (expected - got.length) & 0xff_ffff, highestSequence: highest }, t);
  }
  return loss;
}

describe('ReceiverLoss', () => {
  it('is null before two reports', () => {
    const loss = new ReceiverLoss();
    expect(loss.fraction()).toBeNull();
    loss.add({ packetsLost: 0, highestSequence: 100 }, 0);
    expect(loss.fraction()).toBeNull();
  });

  it('reads reordering jitter with nothing lost as ~0, even with a report every 40 ms', () => {
    for (const reportEveryMs of [40, 1000])
      expect(simulate({ seconds: 5, reportEveryMs }).fraction()).toBeLessThan(0.02);
  });

  it('reads real loss as its rate, under reordering too', () => {
    const loss = simulate({ seconds: 5, reportEveryMs: 40, lostEvery: 20 }); // 5 %
    expect(loss.fraction()).toBeGreaterThan(0.03);
    expect(loss.fraction()).toBeLessThan(0.07);
  });

  it('takes the change over about a second, not since the start', () => {
    const loss = new ReceiverLoss();
    loss.add({ packetsLost: 0, highestSequence: 0 }, 0);
    loss.add({ packetsLost: 50, highestSequence: 100 }, 1000); // a bad first second
    expect(loss.fraction()).toBeCloseTo(0.5);
    loss.add({ packetsLost: 50, highestSequence: 200 }, 2000);
    loss.add({ packetsLost: 51, highestSequence: 300 }, 3000);
    expect(loss.fraction()).toBeCloseTo(0.01);
  });

  it('reads a negative cumulative count (duplicates) as signed and clamps to [0, 1]', () => {
    const loss = new ReceiverLoss();
    loss.add({ packetsLost: 3, highestSequence: 1000 }, 0);
    loss.add({ packetsLost: 0xff_fffe, highestSequence: 1100 }, 1000); // −2: fewer lost than before
    expect(loss.fraction()).toBe(0);
    loss.add({ packetsLost: 500, highestSequence: 1110 }, 2000);
    expect(loss.fraction()).toBe(1);
    loss.add({ packetsLost: 500, highestSequence: 1110 }, 3000); // nothing sent in between
    expect(loss.fraction()).toBe(0);
  });
});
