import dgram from 'node:dgram';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MachineIngest, type PacketSink } from './ingest.js';
import { isVp8KeyframeStart, rtpSeq, rtpTimestamp } from './rtp.js';
import { vp8Packet } from './testing/vp8-packet.js';

function opusPacket(seq: number, ts: number): Buffer {
  const p = Buffer.alloc(20);
  p[0] = 0x80;
  p[1] = 111;
  p.writeUInt16BE(seq & 0xffff, 2);
  p.writeUInt32BE(ts >>> 0, 4);
  p.writeUInt32BE(4321, 8);
  return p;
}

describe('machine ingest lag bound', () => {
  const cleanup: (() => void)[] = [];
  afterEach(() => {
    for (const step of cleanup.splice(0)) step();
    vi.restoreAllMocks();
  });

  it('skips a standing backlog to an on-time keyframe: no gap in the numbers, no ghosts for NACKs, one warning', async () => {
    let clock = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => clock);
    // The event loop as with a backlog in the socket: no waiting for input while the video is late.
    let loopIdleMs = 0;
    vi.spyOn(performance, 'eventLoopUtilization').mockImplementation(() => ({ idle: loopIdleMs, active: 0, utilization: 0 }));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const ingest = new MachineIngest(7, '127.0.0.1', true);
    await ingest.listen();
    const sender = dgram.createSocket('udp4');
    cleanup.push(() => ingest.close(), () => sender.close());
    const video: Buffer[] = [];
    const audio: Buffer[] = [];
    const sink: PacketSink = { sendVideo: (p) => video.push(Buffer.from(p)), sendAudio: (p) => audio.push(p) };
    ingest.viewers.add(sink);
    const { videoPort, audioPort } = ingest.info();

    /** Sends one packet as arriving at `atMs` and waits until the ingest has handled it. */
    const deliver = async (p: Buffer, port: number, atMs: number) => {
      const handled = ingest.videoPackets + ingest.audioPackets + 1;
      clock = atMs;
      await new Promise<void>((resolve, reject) => sender.send(p, port, '127.0.0.1', (e) => (e ? reject(e) : resolve())));
      while (ingest.videoPackets + ingest.audioPackets < handled) await new Promise((r) => setImmediate(r));
    };

    // 30 fps, a 3-packet keyframe each second, 2-packet delta frames, 20 ms Opus packets. On time
    // for 2 s, then 600 ms behind for 1.5 s (a standing backlog), then on time again.
    const delay = (frame: number) => (frame >= 60 && frame < 105 ? 600 : 5);
    let seq = 40_000;
    let audioSeq = 100;
    for (let frame = 0; frame < 150; frame++) {
      const stampMs = 1_000_000 + (frame * 1000) / 30;
      if (delay(frame) < 100) loopIdleMs += 20;
      const key = frame % 30 === 0;
      for (let i = 0; i < (key ? 3 : 2); i++)
        await deliver(vp8Packet(seq++, 77_000 + frame * 3000, { start: i === 0, key }), videoPort, stampMs + delay(frame));
      if (frame % 3 === 0)
        await deliver(opusPacket(audioSeq++, 5000 + ((frame * 1000) / 30) * 48), audioPort, stampMs + delay(frame));
    }

    const stats = ingest.stats();
    expect(stats.lagSkips).toBe(1);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/machine 7: video was \d+ ms behind its encoder; skipped \d+ ms \(\d+ packets\) to a keyframe \(skip 1\)/);
    expect(stats.lagDroppedVideoPackets).toBeGreaterThan(50);
    expect(stats.lagDroppedAudioPackets).toBeGreaterThan(5);
    expect(video.length + stats.lagDroppedVideoPackets!).toBe(stats.videoPackets);

    // The browser sees one run of sequence numbers: nothing to NACK, no loss to report.
    const seqs = video.map(rtpSeq);
    expect(seqs.every((s, i) => i === 0 || s === ((seqs[i - 1]! + 1) & 0xffff))).toBe(true);
    const audioSeqs = audio.map(rtpSeq);
    expect(audioSeqs.every((s, i) => i === 0 || s === audioSeqs[i - 1]! + 1)).toBe(true);
    // Across the skip the timestamp jumps and the picture starts again with a keyframe.
    const jump = video.findIndex((p, i) => i > 0 && rtpTimestamp(p) - rtpTimestamp(video[i - 1]!) > 3000);
    expect(jump).toBeGreaterThan(0);
    expect(isVp8KeyframeStart(video[jump]!)).toBe(true);
    // A NACK for any number sent gets back exactly what was sent under it.
    for (const p of video.slice(-40)) expect(ingest.retransmit.get(rtpSeq(p), clock)).toEqual(p);
    // A viewer joining now starts from the last keyframe forwarded.
    expect(isVp8KeyframeStart(ingest.gop.snapshot()[0]!)).toBe(true);
  });
});
