import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { StreamTarget } from '@reel/protocol';
import { DEFAULT_BANDS } from './bands.js';
import { buildFfmpegArgs, ssrcOfRun } from './encoder.js';
import { bandsAtFps } from '@reel/protocol';
import {
  LEGACY_FFMPEG,
  MODERN_FFMPEG,
  clearFfmpegProbeCache,
  describeProbe,
  missingEncoders,
  parseFfmpegHelp,
  parseFfmpegVersion,
  probeFfmpeg,
} from './ffmpeg-probe.js';

const target: StreamTarget = {
  host: '127.0.0.1',
  videoPort: 5000,
  audioPort: 5002,
  videoSsrc: 111,
  audioSsrc: 222,
  videoPayloadType: 96,
  audioPayloadType: 111,
  bandId: 'high',
};
const band = DEFAULT_BANDS[0]!;

/** The arguments the latency measurements were made with (Debian's ffmpeg 5.1), verbatim, but for the 90 kHz time base of the frames (issue 24). */
// prettier-ignore
const MEASURED = [
  '-hide_banner', '-loglevel', 'error', '-nostats', '-nostdin', '-fflags', 'nobuffer', '-flags', 'low_delay',
  '-probesize', '32', '-analyzeduration', '0',
  '-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', '640x360', '-framerate', '90000', '-use_wallclock_as_timestamps', '1', '-i', 'pipe:0',
  '-fflags', 'nobuffer', '-probesize', '32', '-analyzeduration', '0', '-thread_queue_size', '64',
  '-f', 's16le', '-ar', '48000', '-ac', '1', '-i', 'pipe:3',
  '-map', '0:v', '-fps_mode', 'passthrough', '-c:v', 'libvpx', '-pix_fmt', 'yuv420p', '-deadline', 'realtime',
  '-cpu-used', '8', '-lag-in-frames', '0', '-error-resilient', '1', '-auto-alt-ref', '0', '-threads', '1',
  '-b:v', '1200k', '-maxrate', '1200k', '-bufsize', '600k', '-g', '30', '-keyint_min', '30',
  '-ssrc', '111', '-payload_type', '96', '-f', 'rtp', 'rtp://127.0.0.1:5000?pkt_size=1200',
  '-map', '1:a', '-c:a', 'libopus', '-application', 'lowdelay', '-frame_duration', '20', '-b:a', '48k',
  '-ssrc', '222', '-payload_type', '111', '-f', 'rtp', 'rtp://127.0.0.1:5002?pkt_size=1200',
];

describe('ffmpeg arguments per capability set', () => {
  it('a modern ffmpeg gets exactly the measured low-latency arguments (also the default)', () => {
    expect(buildFfmpegArgs({ target, band, capabilities: MODERN_FFMPEG })).toEqual(MEASURED);
    expect(buildFfmpegArgs({ target, band })).toEqual(MEASURED);
  });

  it('each encoder run sends under SSRCs of its own (Janus rebases sequence numbers only on a new SSRC)', () => {
    const ssrcs = (run: number) => {
      const args = buildFfmpegArgs({ target, band, run });
      return args.flatMap((arg, i) => (arg === '-ssrc' ? [args[i + 1]] : []));
    };
    expect(ssrcs(0)).toEqual(['111', '222']);
    expect(ssrcs(3)).toEqual(['114', '225']);
    expect(ssrcOfRun(0x7fff_ffff, 1)).toBe(1);
  });

  it('the FPS setting sets a keyframe each second and the bitrate (bandsAtFps); frames are stamped on the 90 kHz RTP clock', () => {
    const [at24] = bandsAtFps([band], 24);
    const args = buildFfmpegArgs({ target, band: at24! });
    const after = (flag: string) => args[args.indexOf(flag) + 1];
    expect(after('-framerate')).toBe('90000');
    expect(after('-g')).toBe('24');
    expect(after('-keyint_min')).toBe('24');
    expect(after('-b:v')).toBe('960k');
  });

  it('an ffmpeg without -fps_mode (4.x, the bundled build) gets -vsync passthrough and nothing else changes', () => {
    const legacy = buildFfmpegArgs({ target, band, capabilities: LEGACY_FFMPEG });
    expect(legacy).not.toContain('-fps_mode');
    const at = MEASURED.indexOf('-fps_mode');
    expect(legacy).toEqual([...MEASURED.slice(0, at), '-vsync', 'passthrough', ...MEASURED.slice(at + 2)]);
  });

  it('through a relay, only the video goes to it, RTCP included; the audio still goes to the target', () => {
    const args = buildFfmpegArgs({ target, band, videoVia: { host: '127.0.0.1', port: 6000 } });
    expect(args).toContain('rtp://127.0.0.1:6000?pkt_size=1200&rtcpport=6000');
    expect(args).not.toContain('rtp://127.0.0.1:5000?pkt_size=1200');
    expect(args.at(-1)).toBe('rtp://127.0.0.1:5002?pkt_size=1200');
  });

  it('a camera source keeps the sync rule of its binary', () => {
    const camera = { kind: 'camera' as const, device: '/dev/video0' };
    expect(buildFfmpegArgs({ target, band, source: camera, capabilities: LEGACY_FFMPEG })).toContain(
      '-vsync',
    );
    expect(buildFfmpegArgs({ target, band, source: camera, capabilities: MODERN_FFMPEG })).toContain(
      '-fps_mode',
    );
  });
});

describe('ffmpeg probe', () => {
  it('reads -fps_mode from the option list, and the version from the banner', () => {
    const modern =
      '-vsync              set video sync method globally; deprecated, use -fps_mode\n-fps_mode           set framerate mode\n';
    const old =
      'Advanced Video options:\n-vsync              video sync method\n-frames:v number    set the number of video frames to output\n';
    expect(parseFfmpegHelp(modern)).toEqual({ fpsMode: MODERN_FFMPEG.fpsMode });
    expect(parseFfmpegHelp(old)).toEqual({ fpsMode: LEGACY_FFMPEG.fpsMode });
    expect(
      parseFfmpegVersion('ffmpeg version 5.1.9-0+deb12u1 Copyright (c) 2000-2026 the FFmpeg developers'),
    ).toBe('5.1.9-0+deb12u1');
    expect(
      parseFfmpegVersion(
        'ffmpeg version N-47683-g0e8eb07980-static https://johnvansickle.com/ffmpeg/  Copyright',
      ),
    ).toBe('N-47683-g0e8eb07980-static');
    expect(parseFfmpegVersion('bash: no such thing')).toBeNull();
  });

  it('lists the required encoders a binary lacks', () => {
    const list =
      'Encoders:\n V..... = Video\n ------\n V..... libvpx               libvpx VP8 (codec vp8)\n A..... libopus              libopus Opus (codec opus)\n';
    expect(missingEncoders(list)).toEqual([]);
    expect(missingEncoders(list.replace(/.*libopus.*\n/, ''))).toEqual(['libopus']);
  });

  describe('against fake binaries', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reel-probe-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    beforeEach(() => clearFfmpegProbeCache());
    const script = (name: string, body: string) => {
      const file = path.join(dir, name);
      writeFileSync(file, `#!/bin/sh\necho "$*" >> ${file}.calls\n${body}\n`);
      chmodSync(file, 0o755);
      return file;
    };

    it('asks each binary once, and builds from what it answered', async () => {
      const old = script(
        'old-ffmpeg',
        `case "$1" in
  -h) echo 'ffmpeg version 4.0-static Copyright' >&2; printf -- '-vsync              video sync method\\n-map                set input stream mapping\\n' ;;
  *) printf 'Encoders:\\n V..... libvpx   VP8\\n A..... libopus  Opus\\n' ;;
esac`,
      );
      const first = await probeFfmpeg(old);
      const second = await probeFfmpeg(old);
      expect(second).toBe(first);
      expect(first).toMatchObject({
        version: '4.0-static',
        // It sends no RTP when asked to encode a frame: nothing to widen.
        capabilities: { fpsMode: false, shortPictureIds: false },
        missingEncoders: [],
        error: null,
      });
      // -h full, -encoders, and the one-frame encode that shows its RTP.
      expect(readFileSync(`${old}.calls`, 'utf8').trim().split('\n')).toHaveLength(3);
      expect(describeProbe(first)).toContain('-vsync passthrough');
    });

    it('a binary that cannot answer is reported, and assumed modern', async () => {
      const broken = script('broken-ffmpeg', `echo "Unrecognized option 'h'." >&2; exit 1`);
      const probe = await probeFfmpeg(broken);
      expect(probe.capabilities).toEqual(MODERN_FFMPEG);
      expect(probe.error).toContain("Unrecognized option 'h'.");
      const missing = await probeFfmpeg(path.join(dir, 'nope'));
      expect(missing.error).toMatch(/ENOENT/);
      expect((await probeFfmpeg('/bin/false')).error).toContain('exited with code 1');
    });
  });
});
