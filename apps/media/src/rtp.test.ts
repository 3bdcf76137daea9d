import { describe, expect, it } from 'vitest';
import { GopCache } from './werift/gop-cache.js';
import { RtpContinuity, isVp8KeyframeStart, rtpSeq, rtpTimestamp } from './rtp.js';
import { vp8Packet } from './testing/vp8-packet.js';

describe('VP8 keyframes and the GOP cache', () => {
  it('detects the first packet of a keyframe only', () => {
    expect(isVp8KeyframeStart(vp8Packet(1, 0, { start: true, key: true }))).toBe(true);
    expect(isVp8KeyframeStart(vp8Packet(2, 0, { start: false, key: true }))).toBe(false);
    expect(isVp8KeyframeStart(vp8Packet(3, 0, { start: true, key: false }))).toBe(false);
  });
  it('keeps the packets since the last keyframe, oldest first', () => {
    const gop = new GopCache();
    gop.push(vp8Packet(1, 0, { start: true, key: false }));
    expect(gop.size).toBe(0);
    gop.push(vp8Packet(2, 0, { start: true, key: true }));
    gop.push(vp8Packet(3, 0, { start: false, key: true }));
    gop.push(vp8Packet(4, 3000, { start: true, key: false }));
    expect(gop.snapshot().map(rtpSeq)).toEqual([2, 3, 4]);
    gop.push(vp8Packet(5, 6000, { start: true, key: true }));
    expect(gop.snapshot().map(rtpSeq)).toEqual([5]);
    expect(gop.keyframes).toBe(2);
  });
});

describe('RTP continuity across encoder restarts', () => {
  it('passes a steady stream through unchanged', () => {
    const c = new RtpContinuity(90_000);
    for (let i = 0; i < 5; i++) {
      const p = vp8Packet(100 + i, 9000 + i * 3000, { start: true, key: false });
      c.apply(p, 1000 + i * 33);
      expect(rtpSeq(p)).toBe(100 + i);
      expect(rtpTimestamp(p)).toBe(9000 + i * 3000);
    }
    expect(c.restarts).toBe(0);
  });
  it('continues sequence numbers and timestamps when a new encoder starts elsewhere', () => {
    const c = new RtpContinuity(90_000);
    const a = vp8Packet(65534, 4_000_000_000, { start: true, key: false });
    c.apply(a, 1000);
    const b = vp8Packet(65535, 4_000_003_000, { start: true, key: false });
    c.apply(b, 1033);
    // ffmpeg restarted (band switch): random new sequence and timestamp base, 500 ms later.
    const n = vp8Packet(12_000, 77, { start: true, key: true });
    c.apply(n, 1533);
    expect(c.restarts).toBe(1);
    expect(rtpSeq(n)).toBe(0); // 65535 + 1 wraps
    expect(rtpTimestamp(n)).toBe((4_000_003_000 + 45_000) % 2 ** 32);
    const next = vp8Packet(12_001, 3077, { start: true, key: false });
    c.apply(next, 1566);
    expect(rtpSeq(next)).toBe(1);
    expect(rtpTimestamp(next)).toBe((4_000_003_000 + 45_000 + 3000) % 2 ** 32);
  });
  it('a new SSRC is a new encoder even when its sequence numbers land close to the old ones', () => {
    const c = new RtpContinuity(90_000);
    c.apply(vp8Packet(1000, 9000, { start: true, key: false }), 0);
    // The next run happened to start 20 numbers back: without the SSRC the browser would drop it as old.
    const n = vp8Packet(980, 500, { start: true, key: true, ssrc: 1235 });
    c.apply(n, 500);
    expect(c.restarts).toBe(1);
    expect(rtpSeq(n)).toBe(1001);
    expect(rtpTimestamp(n)).toBe(9000 + 45_000);
  });
  it('treats small gaps as loss, not a restart', () => {
    const c = new RtpContinuity(90_000);
    c.apply(vp8Packet(10, 0, { start: true, key: false }), 0);
    const p = vp8Packet(15, 15_000, { start: true, key: false });
    c.apply(p, 166);
    expect(rtpSeq(p)).toBe(15);
    expect(c.restarts).toBe(0);
  });
});

describe('GOP burst timestamps', () => {
  it('squeezes cached frames to consecutive ticks ending at the newest frame, leaving the cache intact', async () => {
    const { squeezeTimestamps } = await import('./werift/viewer.js');
    const cached = [
      vp8Packet(1, 1000, { start: true, key: true }),
      vp8Packet(2, 1000, { start: false, key: true }),
      vp8Packet(3, 4000, { start: true, key: false }),
      vp8Packet(4, 7000, { start: true, key: false }),
      vp8Packet(5, 7000, { start: false, key: false }),
    ];
    const out = squeezeTimestamps(cached);
    expect(out.map(rtpTimestamp)).toEqual([6998, 6998, 6999, 7000, 7000]);
    expect(out.map(rtpSeq)).toEqual([1, 2, 3, 4, 5]);
    expect(cached.map(rtpTimestamp)).toEqual([1000, 1000, 4000, 7000, 7000]);
  });
});
