/**
 * The video benches name the ffmpeg they measured with, read from what each run's cabinet said, and
 * refuse to put runs of different encoders side by side (e2e/bench/bench-ffmpeg.ts).
 */
import { describe, expect, it } from 'vitest';
import { describeProbe, MODERN_FFMPEG, LEGACY_FFMPEG } from '../apps/cabinet/src/media/ffmpeg-probe.js';
import { ffmpegMismatch, ffmpegOfCabinet } from '../e2e/bench/bench-ffmpeg.js';
import { evaluate, type CaseResult } from '../e2e/bench/network-report.js';

const debian = { path: '/usr/bin/ffmpeg', version: '5.1.9-0+deb12u1' };
const bundled = { path: '/x/node_modules/@ffmpeg-installer/linux-x64/ffmpeg', version: 'N-47683-g0e8eb07980-static' };
const line = (f: typeof debian, legacy = false) =>
  `[cabinet] ${describeProbe({ ...f, capabilities: legacy ? LEGACY_FFMPEG : MODERN_FFMPEG, missingEncoders: [], error: null })}`;

describe('which ffmpeg a bench ran', () => {
  it("is read from the cabinet's own probe line", () => {
    expect(ffmpegOfCabinet(['[cabinet] critical memory in /x', line(debian)])).toEqual(debian);
    expect(ffmpegOfCabinet([line(bundled, true)])).toEqual(bundled);
    expect(ffmpegOfCabinet(['[cabinet] ffmpeg not found: machines run without video'])).toBeNull();
  });

  it('runs of different encoders, or of an unknown one, are not compared', () => {
    expect(ffmpegMismatch([{ name: 'werift', ffmpeg: debian }, { name: 'janus', ffmpeg: { ...debian } }])).toBeNull();
    expect(ffmpegMismatch([{ name: 'werift', ffmpeg: debian }, { name: 'janus', ffmpeg: bundled }])).toMatch(/different ffmpeg builds.*werift: \/usr\/bin\/ffmpeg.*janus: .*ffmpeg-installer/);
    expect(ffmpegMismatch([{ name: 'werift', ffmpeg: debian }, { name: 'janus', ffmpeg: { ...debian, version: '6.0' } }])).toMatch(/different/);
    expect(ffmpegMismatch([{ name: 'werift', ffmpeg: null }, { name: 'janus', ffmpeg: debian }])).toMatch(/unknown/);
  });

  it('the network bench refuses "werift within 10 % of Janus" across encoders', () => {
    const result = (freezesPerMin: number): CaseResult => ({
      name: '0% loss',
      windowMs: 20_000,
      frames: 600,
      freezesPerMin,
      frozenMs: 0,
      gapsOver200: 0,
      fps: 30,
      latencyP50: 15,
      latencyP95: 30,
      latencySamples: 600,
      split: { toReceiveP50: 10, toReceiveP95: 20, afterReceiveP50: 3, afterReceiveP95: 15 },
      recoverMs: null,
      nacks: 0,
      retransmitted: 0,
      plis: 0,
      packetsLost: 0,
      dropped: 0,
    });
    const same = evaluate(
      [
        { backend: 'werift', ffmpeg: debian, results: [result(9)] },
        { backend: 'janus', ffmpeg: debian, results: [result(0)] },
      ],
      100,
    );
    expect(same).toEqual([expect.stringContaining('werift freezes/min 9.0 vs Janus 0.0')]);
    const mixed = evaluate(
      [
        { backend: 'werift', ffmpeg: bundled, results: [result(9)] },
        { backend: 'janus', ffmpeg: debian, results: [result(0)] },
      ],
      100,
    );
    expect(mixed).toEqual([expect.stringMatching(/^werift vs Janus not compared: the runs used different ffmpeg builds/)]);
  });
});
