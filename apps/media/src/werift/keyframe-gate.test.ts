import { describe, expect, it } from 'vitest';
import { vp8Packet } from '../testing/vp8-packet.js';
import { KeyframeGate } from './keyframe-gate.js';

const seqOf = (p: Buffer | null) => (p ? p.readUInt16BE(2) : null);

describe('KeyframeGate (a spectator who falls behind)', () => {
  it('passes everything untouched until told to skip', () => {
    const gate = new KeyframeGate();
    const p = vp8Packet(10, 0, { start: true, key: false });
    expect(gate.pass(p)).toBe(p);
  });

  it('drops deltas up to the next keyframe, then renumbers so the browser sees no gap to NACK', () => {
    const gate = new KeyframeGate();
    gate.pass(vp8Packet(100, 0, { start: true, key: false }));
    gate.skipToKeyframe();
    expect(gate.pass(vp8Packet(101, 3000, { start: true, key: false }))).toBeNull();
    expect(gate.pass(vp8Packet(102, 3000, { start: false, key: false }))).toBeNull();
    expect(gate.pass(vp8Packet(103, 6000, { start: false, key: false }))).toBeNull();
    expect(gate.isSkipping).toBe(true);
    const key = gate.pass(vp8Packet(104, 9000, { start: true, key: true }));
    expect(seqOf(key)).toBe(101);
    expect(seqOf(gate.pass(vp8Packet(105, 9000, { start: false, key: true })))).toBe(102);
    expect(gate.isSkipping).toBe(false);
    expect(gate.originalSeq(102)).toBe(105);
    expect({ skips: gate.skips, dropped: gate.droppedPackets }).toEqual({ skips: 1, dropped: 3 });
  });

  it('wraps sequence numbers at 2^16', () => {
    const gate = new KeyframeGate();
    gate.skipToKeyframe();
    expect(gate.pass(vp8Packet(65535, 0, { start: true, key: false }))).toBeNull();
    expect(seqOf(gate.pass(vp8Packet(0, 3000, { start: true, key: true })))).toBe(65535);
    expect(gate.originalSeq(65535)).toBe(0);
  });
});
