import { describe, expect, it } from 'vitest';
import { RetransmitBuffer } from './retransmit-buffer.js';

function rtp(seq: number): Buffer {
  const p = Buffer.alloc(20);
  p[0] = 0x80;
  p.writeUInt16BE(seq, 2);
  return p;
}

describe('RetransmitBuffer', () => {
  it('returns a packet by its sequence number while it is young enough', () => {
    const buf = new RetransmitBuffer(16, 1000);
    const p = rtp(7);
    buf.push(p, 0);
    expect(buf.get(7, 500)).toBe(p);
    expect(buf.get(7, 1001)).toBeUndefined();
    expect(buf.get(8, 10)).toBeUndefined();
    expect([buf.hits, buf.misses]).toEqual([1, 2]);
  });

  it('forgets a packet once its slot is reused, and never answers with another sequence number', () => {
    const buf = new RetransmitBuffer(16, 1000);
    for (let seq = 0; seq < 20; seq++) buf.push(rtp(seq), seq);
    expect(buf.get(3, 20)).toBeUndefined(); // slot 3 now holds 19
    expect(buf.get(19, 20)!.readUInt16BE(2)).toBe(19);
    expect(buf.get(4, 20)!.readUInt16BE(2)).toBe(4);
  });

  it('works across the 16-bit sequence wrap', () => {
    const buf = new RetransmitBuffer(1024, 1000);
    for (const seq of [65534, 65535, 0, 1]) buf.push(rtp(seq), 0);
    for (const seq of [65534, 65535, 0, 1]) expect(buf.get(seq, 1)!.readUInt16BE(2)).toBe(seq);
  });

  it('holds a keyframe burst and the second after it at 1.2 Mbit/s (default size)', () => {
    const buf = new RetransmitBuffer();
    // ~125 packets/s of 1200 bytes plus a 100-packet keyframe: the first one is still there.
    for (let seq = 0; seq < 225; seq++) buf.push(rtp(seq), (seq * 1000) / 225);
    expect(buf.get(0, 999)).toBeDefined();
  });
});
