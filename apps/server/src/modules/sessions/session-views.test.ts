import { describe, expect, it } from 'vitest';
import type { MachineMeters } from '@reel/protocol';
import { SessionViews } from './session-views.js';

const METERS = { creditsCents: 19_980, betCents: 100, betLevel: 0, autoplay: false, freeSpinsLeft: 0 } as MachineMeters;

/** A player on machine 2, whose cabinet is as given; returns what the player was sent. */
function viewsWith(cabinet: { state: string; meters: MachineMeters | null } | undefined) {
  const sent: unknown[] = [];
  const views = new SessionViews({
    db: {} as never,
    bus: {} as never,
    cabinets: { get: () => (cabinet ? { ...cabinet, videoError: null, info: {} } : undefined) } as never,
    floor: { onMachine: () => ({ playerId: 1, videoType: 'screen' }), send: (_player: number, _event: string, view: unknown) => sent.push(view) } as never,
  });
  return { views, sent };
}

describe('the machine view pushed to its player', () => {
  it('waits for the meters of a cabinet that has just connected, instead of showing no credits', () => {
    const cabinet = { state: 'idle', meters: null as MachineMeters | null };
    const { views, sent } = viewsWith(cabinet);
    views.pushMachine(2);
    expect(sent).toEqual([]);
    cabinet.meters = METERS;
    views.pushMachine(2);
    expect(sent).toEqual([expect.objectContaining({ cabinetState: 'idle', creditsCents: 19_980 })]);
  });

  it('still says at once that a cabinet went offline', () => {
    const { views, sent } = viewsWith(undefined);
    views.pushMachine(2);
    expect(sent).toEqual([expect.objectContaining({ cabinetState: 'offline' })]);
  });
});
