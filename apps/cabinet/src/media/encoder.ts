/**
 * ffmpeg as the encoder: raw RGBA frames on stdin and 48 kHz PCM on fd 3 in, VP8 and Opus RTP to
 * loopback out. Settings are the low-latency ones measured on this class of machine: realtime
 * deadline, no lookahead, no alt-ref, error resilient, one thread, keyframe every second.
 *
 * The arguments follow what the binary supports (ffmpeg-probe.ts): ffmpeg 5.1+ gets exactly the
 * measured set; older builds (the bundled 2018 static build) get `-vsync passthrough` where they
 * lack `-fps_mode passthrough`, which is the same frame-timing rule under its old name.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import type { QualityBand, StreamTarget } from '@reel/protocol';
import { FPS } from './bands.js';
import { MODERN_FFMPEG, type FfmpegCapabilities } from './ffmpeg-probe.js';

/** RTP's video clock (Hz), also the time base the canvas frames are stamped in. */
const VIDEO_CLOCK_RATE = 90_000;

export type VideoSource = { kind: 'canvas' } | { kind: 'camera'; device: string; inputFormat?: string };

interface EncoderOptions {
  ffmpegPath: string;
  target: StreamTarget;
  /** Its `fps` (else FPS): the pump's rate; a keyframe comes every that many frames (each second). */
  band: QualityBand;
  source?: VideoSource;
  /** What the binary accepts (default: a modern ffmpeg). */
  capabilities?: FfmpegCapabilities;
  /** Which run of the machine's encoder this is (0 first): each run sends under SSRCs of its own (ssrcOfRun). */
  run?: number;
  /** Send the video RTP and RTCP here instead of the target (a relay that forwards it, video-relay.ts). */
  videoVia?: { host: string; port: number };
  /** Called with ffmpeg's warnings (stderr), line by line. */
  onLog?: (line: string) => void;
  /** Called once when ffmpeg ends: its exit code or signal, or `spawnError` when it never ran. */
  onExit?: (code: number | null, signal: NodeJS.Signals | null, spawnError?: string) => void;
}

/**
 * The SSRC a run sends under: the target's, moved on by one per restart. ffmpeg starts every run at a
 * random sequence number and timestamp; Janus rebases them for its viewers only when the SSRC
 * changes, and a browser that sees the numbers jump back drops the packets as old until a keyframe
 * far ahead (the picture freezes). The werift forwarder rewrites them either way.
 */
export function ssrcOfRun(ssrc: number, run = 0): number {
  return ((ssrc - 1 + run) % 0x7fff_ffff) + 1;
}

export function buildFfmpegArgs(
  o: Pick<EncoderOptions, 'target' | 'band' | 'source' | 'capabilities' | 'run' | 'videoVia'>,
): string[] {
  const { target: t, band } = o;
  const videoUrl = o.videoVia
    ? `rtp://${o.videoVia.host}:${o.videoVia.port}?pkt_size=1200&rtcpport=${o.videoVia.port}`
    : `rtp://${t.host}:${t.videoPort}?pkt_size=1200`;
  const fps = band.fps ?? FPS;
  const caps = o.capabilities ?? MODERN_FFMPEG;
  const source = o.source ?? { kind: 'canvas' };
  const kbps = band.bitrateKbps;
  const video =
    source.kind === 'canvas'
      ? [
          '-f',
          'rawvideo',
          '-pix_fmt',
          'rgba',
          '-s',
          `${band.width}x${band.height}`,
          // The demuxer's time base: wall-clock stamps are rounded to it, so at 1/fps two frames
          // read a few ms apart shared a tick (or skipped one) and Chrome counted 33 ms of jitter
          // for each. 1/90000 is the RTP clock itself: each frame keeps the time it was read.
          '-framerate',
          String(VIDEO_CLOCK_RATE),
          '-use_wallclock_as_timestamps',
          '1',
          '-i',
          'pipe:0',
        ]
      : [
          '-f',
          'v4l2',
          '-input_format',
          source.inputFormat ?? 'mjpeg',
          '-video_size',
          `${band.width}x${band.height}`,
          '-framerate',
          String(fps),
          '-i',
          source.device,
        ];
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostats',
    '-nostdin',
    '-fflags',
    'nobuffer',
    '-flags',
    'low_delay',
    '-probesize',
    '32',
    '-analyzeduration',
    '0',
    ...video,
    // Input options apply per input: without its own probe limits the audio pipe delays the
    // first packet by about a second.
    '-fflags',
    'nobuffer',
    '-probesize',
    '32',
    '-analyzeduration',
    '0',
    '-thread_queue_size',
    '64',
    '-f',
    's16le',
    '-ar',
    '48000',
    '-ac',
    '1',
    '-i',
    'pipe:3',
    '-map',
    '0:v',
    // Each frame keeps its wall-clock timestamp: no duplicated or dropped frames to reach a rate.
    ...(caps.fpsMode ? ['-fps_mode', 'passthrough'] : ['-vsync', 'passthrough']),
    '-c:v',
    'libvpx',
    '-pix_fmt',
    'yuv420p',
    '-deadline',
    'realtime',
    '-cpu-used',
    '8',
    '-lag-in-frames',
    '0',
    '-error-resilient',
    '1',
    '-auto-alt-ref',
    '0',
    '-threads',
    '1',
    '-b:v',
    `${kbps}k`,
    '-maxrate',
    `${kbps}k`,
    '-bufsize',
    `${Math.round(kbps / 2)}k`,
    // A keyframe every second whatever the rate (a new viewer waits at most that long).
    '-g',
    String(fps),
    '-keyint_min',
    String(fps),
    '-ssrc',
    String(ssrcOfRun(t.videoSsrc, o.run)),
    '-payload_type',
    String(t.videoPayloadType),
    '-f',
    'rtp',
    videoUrl,
    '-map',
    '1:a',
    '-c:a',
    'libopus',
    '-application',
    'lowdelay',
    '-frame_duration',
    '20',
    '-b:a',
    '48k',
    '-ssrc',
    String(ssrcOfRun(t.audioSsrc, o.run)),
    '-payload_type',
    String(t.audioPayloadType),
    '-f',
    'rtp',
    `rtp://${t.host}:${t.audioPort}?pkt_size=1200`,
  ];
}

export class Encoder {
  private proc: ChildProcess | null = null;
  private audio: Writable | null = null;
  readonly frameBytes: number;
  readonly source: VideoSource;

  constructor(private readonly opts: EncoderOptions) {
    this.frameBytes = opts.band.width * opts.band.height * 4;
    this.source = opts.source ?? { kind: 'canvas' };
  }

  get band(): QualityBand {
    return this.opts.band;
  }
  get pid(): number | undefined {
    return this.proc?.pid;
  }
  get running(): boolean {
    return this.proc !== null && this.proc.exitCode === null && !this.proc.killed;
  }

  start(): void {
    const args = buildFfmpegArgs(this.opts);
    const proc = spawn(this.opts.ffmpegPath, args, { stdio: ['pipe', 'ignore', 'pipe', 'pipe'] });
    this.proc = proc;
    this.audio = proc.stdio[3] as Writable;
    // A dying ffmpeg must not take the cabinet with it: EPIPE on either pipe is expected then.
    proc.stdin!.on('error', () => {});
    this.audio.on('error', () => {});
    let pending = '';
    const emitLines = (text: string) => {
      for (const line of text.split('\n')) if (line.trim()) this.opts.onLog?.(line);
    };
    let stderrDone = false;
    let onStderrDone: (() => void) | null = null;
    proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      pending += chunk;
      const cut = pending.lastIndexOf('\n');
      if (cut < 0) return;
      emitLines(pending.slice(0, cut));
      pending = pending.slice(cut + 1);
    });
    proc.stderr!.on('close', () => {
      emitLines(pending);
      pending = '';
      stderrDone = true;
      onStderrDone?.();
    });
    let ended = false;
    const end = (code: number | null, signal: NodeJS.Signals | null, spawnError?: string) => {
      if (ended) return;
      ended = true;
      if (this.proc === proc) this.proc = null;
      this.opts.onExit?.(code, signal, spawnError);
    };
    // A binary that cannot be started (missing, not executable) emits 'error', maybe no 'exit'.
    proc.on('error', (error) => end(null, null, error.message));
    // 'exit' can come before the last stderr lines are read: the listener wants the cause first.
    proc.on('exit', (code, signal) => {
      if (stderrDone) return end(code, signal);
      const timer = setTimeout(() => end(code, signal), 250);
      onStderrDone = () => {
        clearTimeout(timer);
        end(code, signal);
      };
    });
  }

  /** Bytes of video handed to ffmpeg that it has not read yet. */
  get videoBacklogBytes(): number {
    return this.proc?.stdin?.writableLength ?? Number.POSITIVE_INFINITY;
  }

  writeVideo(frame: Buffer): void {
    this.proc?.stdin?.write(frame);
  }

  get audioBacklogBytes(): number {
    return this.audio?.writableLength ?? Number.POSITIVE_INFINITY;
  }

  writeAudio(pcm: Buffer): void {
    this.audio?.write(pcm);
  }

  async stop(): Promise<void> {
    const proc = this.proc;
    if (!proc) return;
    this.proc = null;
    this.audio = null;
    await new Promise<void>((resolve) => {
      // A process that never started has no 'exit' to wait for: give up waiting after a second.
      const giveUp = setTimeout(resolve, 1000);
      const timer = setTimeout(() => proc.kill('SIGKILL'), 500);
      proc.once('exit', () => {
        clearTimeout(timer);
        clearTimeout(giveUp);
        resolve();
      });
      proc.stdin?.end();
      (proc.stdio[3] as Writable | null)?.end();
      proc.kill('SIGTERM');
      if (proc.exitCode !== null || proc.signalCode !== null) {
        clearTimeout(timer);
        clearTimeout(giveUp);
        resolve();
      }
    });
  }
}
