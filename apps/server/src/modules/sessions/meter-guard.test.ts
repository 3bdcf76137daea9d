import { describe, expect, it, vi } from 'vitest';
import { MeterGuard } from './meter-check.js';

describe('MeterGuard', () => {
  it('a cabinet back while its check still ran is checked again, so it does not stay unverified', async () => {
    let connected = false;
    const onMachine = vi.fn(async () => 'ok');
    const guard = new MeterGuard({
      db: {} as never,
      cabinets: {
        isConnected: () => connected,
        get: () => ({ state: 'idle' }),
        sendCommand: async () => ({ outcome: 'ok' }),
      } as never,
      commands: { onMachine: onMachine as never, runPending: async () => {} },
      cycles: { enqueue: async () => {} },
      order: { settled: async () => {} },
      malfunctions: { onMeterFault: async () => {} },
      warn: () => {},
    });
    guard.connected(5);
    // The check starts while the old connection is gone: it finds the machine offline...
    const first = guard.verify(5);
    // ...and the cabinet connects again (its 'connected' asks for a check) before that check ends.
    connected = true;
    guard.connected(5);
    const second = guard.verify(5);
    await Promise.all([first, second]);
    expect(onMachine).toHaveBeenCalledTimes(1);
    expect(guard.isVerified(5)).toBe(true);
    guard.stop();
  });
});
