import { describe, expect, it } from 'vitest';
import { CycleOrder } from './cycle-order.js';

describe('CycleOrder.recorded', () => {
  it('is true at once for a machine with nothing reported, and once its queued recordings ran', async () => {
    const order = new CycleOrder(() => {});
    expect(await order.recorded(1, 0)).toBe(true);
    let finish = () => {};
    const running = new Promise<void>((started) => void order.chain(1, () => new Promise<void>((r) => ((finish = r), started()))));
    const answer = order.recorded(1, 5_000);
    await running;
    finish();
    expect(await answer).toBe(true);
  });

  it('is false after its time while a recording still runs (a play command is then refused, not held past its caller)', async () => {
    const order = new CycleOrder(() => {});
    void order.chain(1, () => new Promise<void>(() => {}));
    const started = Date.now();
    expect(await order.recorded(1, 50)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    // Another machine's queue is its own.
    expect(await order.recorded(2, 0)).toBe(true);
  });
});
