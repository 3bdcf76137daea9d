import { describe, expect, it } from 'vitest';
import { IngestLagGate, LagMeter, type LagVerdict } from './ingest-lag.js';

const FRAME_MS = 1000 / 30;
const TICKS_PER_FRAME = 3000;

interface Packet {
  frame: number;
  ts: number;
  /** When the encoder stamped the frame (ms). */
  stampedMs: number;
  keyframeStart: boolean;
}

/**
 * A 30 fps VP8 stream as the cabinet sends it: a keyframe of `keyPackets` every second, delta
 * frames of 4 packets; RTP time follows the stamp from `firstTs` on (wrapping past 2^32).
 */
function stream(frames: number, firstTs = 1_234_567, keyPackets = 20): Packet[] {
  const out: Packet[] = [];
  for (let frame = 0; frame < frames; frame++) {
    const key = frame % 30 === 0;
    const ts = (firstTs + frame * TICKS_PER_FRAME) % 2 ** 32;
    for (let i = 0; i < (key ? keyPackets : 4); i++)
      out.push({ frame, ts, stampedMs: frame * FRAME_MS, keyframeStart: key && i === 0 });
  }
  return out;
}

/**
 * Feeds the packets arriving `delayMs(packet)` after their stamp, with the event loop's idle time
 * `idleMs(packet)` (default: never idle, a forwarder with a backlog); returns the verdicts.
 */
function run(
  gate: IngestLagGate,
  packets: Packet[],
  delayMs: (p: Packet, index: number) => number,
  idleMs: (p: Packet) => number = () => 0,
): LagVerdict[] {
  return packets.map((p, i) => gate.admit(p.ts, 1_000_000 + p.stampedMs + delayMs(p, i), p.keyframeStart, idleMs(p)));
}

/** A small deterministic PRNG (LCG), so the jitter is the same on every run. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

describe('ingest lag gate', () => {
  it('drops a stream that stays late from a frame start until an on-time keyframe, then forwards it', () => {
    const gate = new IngestLagGate({ clockRate: 90_000 });
    const packets = stream(300);
    // On time for 3 s; a backlog builds over the next second to 500 ms and stands; it has drained
    // by frame 170 (the forwarder caught up once it dropped), so the keyframe at 180 is on time.
    const backlog = (p: Packet) => (p.frame < 90 ? 5 : p.frame < 170 ? Math.min(500, 5 + (p.frame - 90) * 17) : 5);
    const verdicts = run(gate, packets, backlog);
    expect(verdicts.filter((v) => v === 'skip')).toHaveLength(1);
    const skipAt = verdicts.indexOf('skip');
    const resumeAt = verdicts.indexOf('resume');
    expect(packets[skipAt]!.ts).not.toBe(packets[skipAt - 1]!.ts); // a frame start
    // The keyframes at frames 120 and 150 came out of the backlog, still late: not resumed at.
    expect(packets[resumeAt]).toMatchObject({ frame: 180, keyframeStart: true });
    expect(verdicts.slice(skipAt + 1, resumeAt).every((v) => v === 'drop')).toBe(true);
    expect(verdicts.slice(resumeAt + 1).every((v) => v === 'send')).toBe(true);
    expect(verdicts.slice(0, skipAt).every((v) => v === 'send')).toBe(true);
    expect(gate.skips).toBe(1);
    expect(gate.dropped).toBe(resumeAt - skipAt);
    expect(gate.lastSkip).toMatchObject({ dropped: resumeAt - skipAt, gaveUp: false });
    expect(gate.lastSkip!.lagMs).toBeGreaterThan(250);
  });

  it('keeps a forwarder that cannot keep up within a bounded lag, sending whole frames and resuming at keyframes', () => {
    // The forwarder as a queue: sending a packet costs 10 ms (4 packets per 33 ms frame: 20 % more
    // work than time), dropping one next to nothing; it idles when no packet is waiting. Without
    // the gate the lag grows without bound.
    const gate = new IngestLagGate({ clockRate: 90_000 });
    const packets = stream(900);
    const sentPerFrame = new Map<number, number>();
    const totalPerFrame = new Map<number, number>();
    let freeAtMs = 0;
    let idleMs = 0;
    let maxSentLagMs = 0;
    let lastVerdict: LagVerdict = 'send';
    for (const p of packets) {
      const atMs = Math.max(freeAtMs, p.stampedMs);
      idleMs += atMs - freeAtMs;
      const verdict = gate.admit(p.ts, atMs, p.keyframeStart, idleMs);
      totalPerFrame.set(p.frame, (totalPerFrame.get(p.frame) ?? 0) + 1);
      if (verdict === 'send' || verdict === 'resume') {
        expect(verdict === 'resume').toBe(lastVerdict === 'drop' || lastVerdict === 'skip');
        if (verdict === 'resume') expect(p.keyframeStart).toBe(true);
        sentPerFrame.set(p.frame, (sentPerFrame.get(p.frame) ?? 0) + 1);
        maxSentLagMs = Math.max(maxSentLagMs, atMs - p.stampedMs);
      }
      lastVerdict = verdict;
      freeAtMs = atMs + ((verdict === 'send' || verdict === 'resume') && p.stampedMs > 2000 ? 10 : 0.01);
    }
    expect(gate.skips).toBeGreaterThanOrEqual(2);
    // Limit 250 ms plus the 200 ms hold plus the frame that finishes going out.
    expect(maxSentLagMs).toBeLessThan(500);
    for (const [frame, sent] of sentPerFrame) expect(sent).toBe(totalPerFrame.get(frame));
  });

  it('drops nothing from an on-time stream with jitter and 100-packet keyframe bursts', () => {
    const gate = new IngestLagGate({ clockRate: 90_000 });
    const rand = random(7);
    const packets = stream(1800, 99, 100); // a minute
    const frameDelay = new Map<number, number>();
    const verdicts = run(gate, packets, (p, i) => {
      if (!frameDelay.has(p.frame)) frameDelay.set(p.frame, 5 + rand() * 60);
      // A keyframe's packets come within a millisecond of each other.
      return frameDelay.get(p.frame)! + (i % 100) * 0.01;
    });
    expect(verdicts.every((v) => v === 'send')).toBe(true);
    expect(gate.skips).toBe(0);
  });

  it('does not skip for a single late burst: a 300 ms stall drained within a millisecond', () => {
    const gate = new IngestLagGate({ clockRate: 90_000 });
    const packets = stream(300, 5, 100);
    // Frames 60 (a 100-packet keyframe) to 68 wait for the forwarder until frame 69's time, then
    // all go through within 1 ms.
    const stalledUntil = 69 * FRAME_MS + 5;
    const verdicts = run(gate, packets, (p, i) =>
      p.frame >= 60 && p.frame < 69 ? stalledUntil - p.stampedMs + (i % 100) * 0.01 : 5,
    );
    expect(verdicts.every((v) => v === 'send')).toBe(true);
  });

  it('does not skip for lag that did not wait in the forwarder (its event loop kept waiting for input)', () => {
    const gate = new IngestLagGate({ clockRate: 90_000 });
    const verdicts = run(
      gate,
      stream(300),
      (p) => (p.frame < 60 ? 5 : 400),
      (p) => p.frame * 20,
    );
    expect(verdicts.every((v) => v === 'send')).toBe(true);
    expect(gate.lateUpstream).toBeGreaterThan(5);
  });

  it('resumes at the first keyframe after its backlog drained, though the rest of the lag stays', () => {
    const gate = new IngestLagGate({ clockRate: 90_000 });
    const packets = stream(300);
    // 500 ms behind with a backlog from frame 60; from frame 100 the backlog is gone (the loop
    // waits for input again) but 200 ms of lag upstream remain.
    const verdicts = run(
      gate,
      packets,
      (p) => (p.frame < 60 ? 5 : p.frame < 100 ? 500 : 200),
      (p) => (p.frame < 60 ? p.frame : p.frame < 100 ? 60 : 60 + (p.frame - 100) * 20),
    );
    expect(gate.skips).toBe(1);
    const resumeAt = verdicts.indexOf('resume');
    expect(packets[resumeAt]).toMatchObject({ frame: 120, keyframeStart: true });
    expect(verdicts.slice(resumeAt + 1).every((v) => v === 'send')).toBe(true);
  });

  it('measures across the RTP timestamp wrap: on time stays on time, late is still caught', () => {
    const nearWrap = 2 ** 32 - 45 * TICKS_PER_FRAME; // wraps 1.5 s in
    const onTime = new IngestLagGate({ clockRate: 90_000 });
    const verdicts = run(onTime, stream(300, nearWrap), () => 10);
    expect(verdicts.every((v) => v === 'send')).toBe(true);
    expect(onTime.meter.lagMs).toBeLessThan(1);

    const late = new IngestLagGate({ clockRate: 90_000 });
    run(late, stream(300, nearWrap), (p) => (p.frame < 90 ? 10 : 500));
    expect(late.skips).toBe(1);

    const meter = new LagMeter(90_000);
    expect(meter.measure(2 ** 32 - 900, 0)).toBe(0);
    expect(meter.measure(900, 20)).toBe(0); // 20 ms of RTP time later, across the wrap
    expect(meter.measure(1800, 60)).toBe(30);
  });

  it('starts the baseline over for a new encoder run with a timestamp base of its own', () => {
    const gate = new IngestLagGate({ clockRate: 90_000 });
    run(gate, stream(90), () => 5);
    // The next run's RTP time reads as 10 s behind the old one's.
    const next = stream(90, 1_234_567 - 900_000).map((p) => ({ ...p, stampedMs: p.stampedMs + 3000 }));
    gate.restartBaseline();
    expect(run(gate, next, () => 5).every((v) => v === 'send')).toBe(true);
  });

  it('gives up a skip whose lag does not drain (the source clock moved) and resumes at a keyframe', () => {
    const gate = new IngestLagGate({ clockRate: 90_000 });
    const packets = stream(300);
    const verdicts = run(gate, packets, (p) => (p.frame < 60 ? 5 : 405));
    const resumeAt = verdicts.indexOf('resume');
    expect(packets[resumeAt]!.keyframeStart).toBe(true);
    // 2.5 s of trying, then the next keyframe.
    expect(packets[resumeAt]!.frame).toBe(150);
    expect(verdicts.slice(resumeAt + 1).every((v) => v === 'send')).toBe(true);
    expect(gate.skips).toBe(1);
    expect(gate.lastSkip!.gaveUp).toBe(true);
  });

  it('drops the late packets of a stream that travels along only while the gate skips', () => {
    const gate = new IngestLagGate({ clockRate: 90_000 });
    expect(gate.keepsAlongside(600)).toBe(true);
    run(gate, stream(100), (p) => (p.frame < 60 ? 5 : 600));
    expect(gate.skips).toBe(1);
    expect(gate.keepsAlongside(600)).toBe(false);
    expect(gate.keepsAlongside(20)).toBe(true);
  });
});
