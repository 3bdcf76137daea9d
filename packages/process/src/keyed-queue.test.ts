import { describe, expect, it, vi } from 'vitest';
import { KeyedQueue } from './keyed-queue.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('KeyedQueue', () => {
  it('runs the works of one key one after another, in the order queued', async () => {
    const queue = new KeyedQueue<number>();
    const order: string[] = [];
    const slow = queue.run(1, async () => {
      await tick();
      order.push('first');
      return 'a';
    });
    const fast = queue.run(1, async () => {
      order.push('second');
      return 'b';
    });
    expect(await Promise.all([slow, fast])).toEqual(['a', 'b']);
    expect(order).toEqual(['first', 'second']);
  });

  it('runs different keys side by side', async () => {
    const queue = new KeyedQueue<number>();
    const order: number[] = [];
    const one = queue.run(1, async () => {
      await tick();
      order.push(1);
    });
    const two = queue.run(2, async () => {
      order.push(2);
    });
    await Promise.all([one, two]);
    expect(order).toEqual([2, 1]);
  });

  it('goes on after a failed work, which its caller and onError both hear of', async () => {
    const onError = vi.fn();
    const queue = new KeyedQueue<string>(onError);
    const failed = queue.run('m', async () => {
      throw new Error('boom');
    });
    const next = queue.run('m', async () => 'ran');
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('ran');
    expect(onError).toHaveBeenCalledTimes(1);
    expect((onError.mock.calls[0]![0] as Error).message).toBe('boom');
  });

  it('tells when every work queued on a key so far has settled', async () => {
    const queue = new KeyedQueue<number>();
    await queue.idle(1); // nothing queued: at once
    let done = false;
    void queue.run(1, async () => {
      await tick();
      done = true;
    });
    await queue.idle(1);
    expect(done).toBe(true);
  });
});
