import { describe, expect, it } from 'vitest';
import { VolatileMemoryStore } from './critical-memory.js';
import { SlotMachine } from './machine.js';
import type { MachineStateEvent } from './machine-types.js';

const FAST = { spinDurationMs: 5, reelStaggerMs: 1, autoplayGapMs: 2, cashOutDurationMs: 2 };

describe('emergency stop', () => {
  it('refuses every game and money command until released, reports why, and survives a restart', async () => {
    const memory = new VolatileMemoryStore();
    const machine = new SlotMachine({ machineId: 7, timing: FAST, memory });
    const states: MachineStateEvent[] = [];
    machine.on('state', (s) => states.push(s));
    expect((await machine.execute({ commandId: 'c1', type: 'credit_in', amountCents: 500 })).outcome).toBe('ok');

    await machine.setEmergencyStop('smoke from cabinet');
    expect(states.at(-1)).toMatchObject({ state: 'idle', emergencyStop: 'smoke from cabinet' });
    for (const command of [
      { commandId: 'c2', type: 'spin' },
      { commandId: 'c3', type: 'credit_in', amountCents: 100 },
      { commandId: 'c4', type: 'cash_out' },
      { commandId: 'c5', type: 'set_bet_level', level: 1 },
      { commandId: 'c6', type: 'autoplay', on: true },
    ] as const) {
      const result = await machine.execute(command);
      expect(result, command.type).toMatchObject({ outcome: 'rejected', reason: 'emergency_stop' });
    }
    expect(machine.meters.creditsCents).toBe(500);
    // The memory reads still answer: the server checks the meters with them.
    expect((await machine.execute({ commandId: 'c7', type: 'recall' })).outcome).toBe('ok');
    machine.dispose();

    // A restart from the committed memory keeps the stop.
    const restarted = new SlotMachine({ machineId: 7, timing: FAST, memory });
    const announced: MachineStateEvent[] = [];
    restarted.on('state', (s) => announced.push(s));
    restarted.announce();
    expect(announced[0]).toMatchObject({ emergencyStop: 'smoke from cabinet' });
    expect((await restarted.execute({ commandId: 'c8', type: 'spin' })).reason).toBe('emergency_stop');

    await restarted.setEmergencyStop(null);
    expect(announced.at(-1)!.emergencyStop).toBeUndefined();
    // The cash out refused during the stop runs when the server sends it again.
    const out = await restarted.execute({ commandId: 'c4', type: 'cash_out' });
    expect(out).toMatchObject({ outcome: 'ok', amountCents: 500 });
    restarted.dispose();
  });
});
