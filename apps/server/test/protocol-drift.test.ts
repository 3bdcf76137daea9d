/** The drift check the server tests run on every message sent to a browser. */
import { describe, expect, it } from 'vitest';
import { WsPath } from '@reel/protocol';
import { driftOf } from './protocol-drift.js';

describe('protocol drift check', () => {
  const machine = {
    machineId: 1,
    cabinetState: 'idle',
    creditsCents: 0,
    betCents: 20,
    betLevel: 0,
    autoplay: false,
    freeSpinsLeft: 0,
    videoType: 'screen',
  };

  it('passes messages that match their schema', () => {
    expect(driftOf(WsPath.game, 'machine', machine)).toBeNull();
    expect(
      driftOf(WsPath.game, 'error', { code: 40000, ErrorMessage: 'Invalid request', fatal: false }),
    ).toBeNull();
    expect(driftOf(WsPath.notifications, 'pong', {})).toBeNull();
  });

  it('names an unknown event, a retyped, a missing and an added field', () => {
    expect(driftOf(WsPath.game, 'state', {})).toMatch(/"state" is not a server message/);
    expect(driftOf(WsPath.game, 'machine', { ...machine, creditsCents: '0' })).toMatch(/creditsCents/);
    expect(driftOf(WsPath.game, 'machine', { ...machine, betLevel: undefined })).not.toBeNull();
    expect(driftOf(WsPath.game, 'machine', { ...machine, extra: 1 })).not.toBeNull();
    expect(driftOf(WsPath.game, 'machine', { ...machine, cabinetState: 'spinning' })).not.toBeNull();
    expect(driftOf(WsPath.jackpot, 'jackpot', { brandId: 1 })).not.toBeNull();
  });
});
