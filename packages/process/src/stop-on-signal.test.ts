import { afterEach, describe, expect, it, vi } from 'vitest';
import { stopOnSignal, type StopOnSignal } from './stop-on-signal.js';

describe('stopOnSignal', () => {
  let handle: StopOnSignal | undefined;
  afterEach(() => handle?.dispose());

  it('stops once on the first signal and exits with 0, however many signals follow', async () => {
    let release!: () => void;
    const stop = vi.fn((_reason: string) => new Promise<void>((resolve) => (release = resolve)));
    const exit = vi.fn();
    handle = stopOnSignal(stop, { exit });
    process.emit('SIGTERM');
    process.emit('SIGINT');
    expect(handle.stopping).toBe(true);
    expect(stop).toHaveBeenCalledTimes(1);
    expect(stop).toHaveBeenCalledWith('SIGTERM');
    expect(exit).not.toHaveBeenCalled();
    release();
    await vi.waitFor(() => expect(exit).toHaveBeenCalledWith(0));
    expect(exit).toHaveBeenCalledTimes(1);
  });

  it('stops on a call of its own with the exit code given, and ignores a later signal', async () => {
    const stop = vi.fn(async (_reason: string) => {});
    const exit = vi.fn();
    handle = stopOnSignal(stop, { exit });
    expect(handle.stopping).toBe(false);
    await handle.shutdown('startup failure', 78);
    process.emit('SIGINT');
    expect(stop).toHaveBeenCalledTimes(1);
    expect(stop).toHaveBeenCalledWith('startup failure');
    expect(exit).toHaveBeenCalledWith(78);
  });

  it('listens to no signal once disposed', () => {
    const stop = vi.fn(async (_reason: string) => {});
    const before = process.listenerCount('SIGTERM');
    const own = stopOnSignal(stop, { exit: vi.fn() });
    expect(process.listenerCount('SIGTERM')).toBe(before + 1);
    own.dispose();
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });
});
