/**
 * The live picture and sound of one machine: renderer → frame pump → ffmpeg, sound mixer → ffmpeg,
 * RTP to the target the server names. Switching band restarts ffmpeg at the new size with the same
 * payload types and the next SSRCs (ssrcOfRun); the werift forwarder and Janus smooth sequence
 * numbers and timestamps across the restart, so the viewer's session continues and the first new
 * frame is a keyframe.
 *
 * The arguments suit the binary (probed once per path, ffmpeg-probe.ts). An encoder that dies is
 * restarted with exponential backoff; one that keeps dying fast (it refuses its arguments, lacks an
 * encoder, cannot start) is logged once with its first error line, and after
 * `maxFastFailures` in a row the stream stops retrying and puts the machine into 'error' with a
 * video fault (reported to the server), until a later stream_start/set_band brings video back.
 */
import { backoffDelayMs } from '@reel/process';
import { bandsAtFps, clampFps, type BrandArt, type QualityBand, type StreamTarget, type VideoType } from '@reel/protocol';
import type { SlotMachine } from '../game/machine.js';
import { CameraView, ViewSwitch } from '../render/camera-view.js';
import { CabinetRenderer } from '../render/renderer.js';
import { SAMPLES_PER_CHUNK, SAMPLE_RATE, SoundMixer } from '../render/sound.js';
import { DEFAULT_BANDS, DEFAULT_BAND_ID, FPS } from './bands.js';
import { Encoder, type VideoSource } from './encoder.js';
import { MODERN_FFMPEG, probeFfmpeg, type FfmpegCapabilities } from './ffmpeg-probe.js';
import { AudioTimeline } from './audio-timeline.js';
import { FramePump } from './frame-pump.js';
import { VideoRelay } from './video-relay.js';

const AUDIO_TICK_MS = 20;
/** More audio than this waiting in ffmpeg's pipe: it is not reading, so nothing more is written until it is. */
const MAX_AUDIO_BACKLOG_BYTES = SAMPLE_RATE * 2 * 0.1;
/** After a stall, the latest this many samples carry the machine's sound; older missed time is silence. */
const MAX_AUDIO_CATCHUP_SAMPLES = SAMPLES_PER_CHUNK * 10;

export interface RestartPolicy {
  /** Pause before the first restart; doubles with each further fast failure in a row. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** A run shorter than this is a fast failure; a longer one resets the count. */
  fastFailureMs: number;
  /** Fast failures in a row after which the stream gives up and reports the video failed. */
  maxFastFailures: number;
}

/** ~7.5 s of retries (0.5 + 1 + 2 + 4 s) before a machine whose encoder cannot run is reported. */
export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  initialDelayMs: 500,
  maxDelayMs: 8000,
  fastFailureMs: 5000,
  maxFastFailures: 5,
};

/** Pause before restarting after the `failures`-th fast failure in a row (1-based). */
export function restartDelayMs(failures: number, policy: RestartPolicy = DEFAULT_RESTART_POLICY): number {
  return backoffDelayMs({ initialMs: policy.initialDelayMs, maxMs: policy.maxDelayMs }, Math.max(0, failures - 1));
}

/** Lines of one run's stderr kept for the failure report. */
const HELD_LINES = 20;

interface MachineStreamOptions {
  ffmpegPath: string;
  bands?: readonly QualityBand[];
  source?: VideoSource;
  /** The brand's look until setArt names another. */
  art?: BrandArt;
  log?: (msg: string) => void;
  restartPolicy?: Partial<RestartPolicy>;
}

export class MachineStream {
  /** The bands at the current frame rate (setFps); ids never change. */
  bands: readonly QualityBand[];
  private readonly baseBands: readonly QualityBand[];
  private fps = FPS;
  readonly mixer = new SoundMixer();
  private readonly renderers = new Map<string, CabinetRenderer>();
  private encoder: Encoder | null = null;
  private pump: FramePump | null = null;
  private audioTimer: NodeJS.Timeout | null = null;
  private target: StreamTarget | null = null;
  private bandId = DEFAULT_BAND_ID;
  /** Every millisecond of the run reaches ffmpeg as sound or silence (audio-timeline.ts). */
  private readonly audio = new AudioTimeline({
    sampleRate: SAMPLE_RATE,
    maxSoundSamples: MAX_AUDIO_CATCHUP_SAMPLES,
    maxBacklogBytes: MAX_AUDIO_BACKLOG_BYTES,
    maxSilenceSamples: SAMPLE_RATE * 5,
  });
  private restarts = 0;
  /** Encoder runs so far (each sends under SSRCs of its own). */
  private runs = 0;
  private keyframeRestarts = 0;
  private capabilities: FfmpegCapabilities = MODERN_FFMPEG;
  /** For an ffmpeg with 7-bit VP8 picture IDs: the hop that widens them (video-relay.ts). */
  private relay: VideoRelay | null = null;
  private readonly policy: RestartPolicy;
  /** Fast failures in a row, and the cause last logged (each new cause is logged once). */
  private failures = 0;
  private loggedCause: string | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private healthyTimer: NodeJS.Timeout | null = null;
  /** Set when the stream gave up: why video cannot start. */
  private failedCause: string | null = null;
  onFrame: ((renderedAtMs: number) => void) | null = null;
  private art: BrandArt | undefined;
  /** The picture the stream carries (set_view); the lobby's stills always show the screen. */
  private shownView: VideoType = 'screen';

  constructor(
    private readonly machine: SlotMachine,
    private readonly opts: MachineStreamOptions,
  ) {
    this.baseBands = opts.bands ?? DEFAULT_BANDS;
    this.bands = bandsAtFps(this.baseBands, this.fps);
    this.art = opts.art;
    this.policy = { ...DEFAULT_RESTART_POLICY, ...opts.restartPolicy };
    machine.on('sound', (cue) => {
      if (cue !== 'spin') this.mixer.play(cue);
    });
    machine.on('spin', (spin) => {
      this.mixer.play('spin');
      for (const at of spin.reelStopAtMs) this.mixer.schedule('reel_stop', at);
      this.pump?.kick();
    });
  }

  get active(): boolean {
    return this.encoder !== null;
  }
  get currentBand(): QualityBand {
    return this.bands.find((b) => b.id === this.bandId) ?? this.bands[0]!;
  }
  get encoderPid(): number | undefined {
    return this.encoder?.pid;
  }
  get stats(): {
    framesWritten: number;
    framesSkipped: number;
    restarts: number;
    band: string;
    failures: number;
    failed: string | null;
    keyframeRestarts: number;
  } {
    return {
      framesWritten: this.pump?.framesWritten ?? 0,
      framesSkipped: this.pump?.framesSkipped ?? 0,
      restarts: this.restarts,
      band: this.bandId,
      failures: this.failures,
      failed: this.failedCause,
      keyframeRestarts: this.keyframeRestarts,
    };
  }
  /** Why video cannot start, once the stream gave up; null while it works or still retries. */
  get failure(): string | null {
    return this.failedCause;
  }
  /** Whether a restart of the encoder waits for its pause to end (only an explicit start launches otherwise). */
  get retryScheduled(): boolean {
    return this.retryTimer !== null;
  }

  /** The renderer for a band (created on first use; the picture scales to the band). */
  renderer(band: QualityBand = this.currentBand): CabinetRenderer {
    let r = this.renderers.get(band.id);
    if (!r) {
      r = new CabinetRenderer(this.machine, {
        width: band.width,
        height: band.height,
        ...(this.art ? { art: this.art } : {}),
      });
      this.renderers.set(band.id, r);
    }
    return r;
  }

  /** The brand's title and colours on every band's picture, from the next frame. */
  setArt(art: BrandArt): void {
    this.art = art;
    for (const renderer of this.renderers.values()) renderer.setArt(art);
  }

  get view(): VideoType {
    return this.shownView;
  }

  /**
   * Screen or camera from the next frame, drawn into the running stream. A real camera's video has
   * no drawn picture to switch: only 'screen' (its one picture) is accepted there.
   */
  setView(view: VideoType): boolean {
    if (this.opts.source?.kind === 'camera' && view === 'camera') return false;
    this.shownView = view;
    this.pump?.kick();
    return true;
  }

  get frameRate(): number {
    return this.fps;
  }

  /**
   * The `FPS` setting the server named: frames are painted and encoded at this rate, and the bands'
   * bitrates follow it (bandsAtFps). A running encoder restarts at the new rate.
   */
  async setFps(fps: number): Promise<void> {
    const rate = clampFps(fps);
    if (rate === this.fps) return;
    this.fps = rate;
    this.bands = bandsAtFps(this.baseBands, rate);
    if (!this.target) return;
    await this.stopEncoder();
    await this.relaunch();
  }

  hasBand(bandId: string): boolean {
    return this.bands.some((b) => b.id === bandId);
  }

  /** An explicit (re)start: a stream that gave up tries again from a clean failure count. */
  async start(target: StreamTarget): Promise<void> {
    await this.stopEncoder();
    this.target = target;
    if (this.hasBand(target.bandId)) this.bandId = target.bandId;
    await this.relaunch();
  }

  async setBand(bandId: string): Promise<void> {
    if (!this.hasBand(bandId)) throw new Error('unknown_band');
    if (bandId === this.bandId && this.encoder) return;
    this.bandId = bandId;
    if (!this.target) return;
    await this.stopEncoder();
    await this.relaunch();
  }

  /**
   * A viewer lost the picture. ffmpeg's libvpx wrapper cannot be told to force a keyframe while it
   * runs (its `-force_key_frames` is fixed at start), so the encoder restarts as on a band switch:
   * its first frame is a keyframe, and the forwarder keeps sequence numbers and timestamps
   * continuous. The media process rate-limits the requests and skips them when the encoder's own
   * keyframe is due anyway (apps/media/src/keyframe-requests.ts).
   */
  async requestKeyframe(): Promise<void> {
    if (!this.target || !this.encoder) return;
    this.keyframeRestarts++;
    await this.stopEncoder();
    await this.relaunch();
  }

  async stop(): Promise<void> {
    this.target = null;
    await this.stopEncoder();
    this.relay?.close();
    this.relay = null;
  }

  private async relaunch(): Promise<void> {
    this.failures = 0;
    this.loggedCause = null;
    this.failedCause = null;
    this.capabilities = (await probeFfmpeg(this.opts.ffmpegPath)).capabilities;
    if (this.capabilities.shortPictureIds && this.target && !this.relay) {
      const relay = await VideoRelay.open({ host: this.target.host, port: this.target.videoPort });
      // Stopped meanwhile, or another relaunch made one first.
      if (this.relay || !this.target) relay.close();
      else this.relay = relay;
    }
    // Stopped or restarted meanwhile: that call owns the encoder now.
    if (this.target && !this.encoder && !this.retryTimer) this.launch();
  }

  private log(msg: string): void {
    this.opts.log?.(msg);
  }

  private launch(): void {
    const target = this.target!;
    const band = this.currentBand;
    const renderer = this.renderer(band);
    renderer.timestampStrip = target.timestampStrip ?? false;
    const id = this.machine.machineId;
    const startedAtMs = Date.now();
    this.relay?.retarget({ host: target.host, port: target.videoPort });
    // stderr of a run is held until it has lived past the fast-failure time: a binary that refuses
    // its arguments then costs one log line per cause, not its whole output on every retry.
    const held: string[] = [];
    let healthy = false;
    const encoder = new Encoder({
      ffmpegPath: this.opts.ffmpegPath,
      target,
      band,
      capabilities: this.capabilities,
      run: this.runs++,
      ...(this.opts.source ? { source: this.opts.source } : {}),
      ...(this.relay ? { videoVia: this.relay.via } : {}),
      onLog: (line) => {
        if (healthy) this.log(`ffmpeg[${id}]: ${line}`);
        else if (held.length < HELD_LINES) held.push(line.trim());
      },
      onExit: (code, signal, spawnError) => {
        if (this.encoder !== encoder) return; // stopped on purpose
        const exit = spawnError
          ? `could not start ${this.opts.ffmpegPath}: ${spawnError}`
          : `exited with ${code !== null ? `code ${code}` : signal}`;
        const ranMs = Date.now() - startedAtMs;
        void this.stopEncoder().then(() => this.onEncoderFailed(held, exit, ranMs));
      },
    });
    encoder.start();
    this.encoder = encoder;
    this.healthyTimer = setTimeout(() => {
      this.healthyTimer = null;
      if (this.encoder !== encoder) return;
      healthy = true;
      for (const line of held.splice(0)) this.log(`ffmpeg[${id}]: ${line}`);
      if (this.failures > 0 || this.machine.videoError !== null)
        this.log(`encoder for machine ${id} running again after ${this.failures} failure(s)`);
      this.failures = 0;
      this.loggedCause = null;
      this.machine.setVideoFault(null);
    }, this.policy.fastFailureMs);
    if (encoder.source.kind === 'canvas') {
      const views = new ViewSwitch(renderer, new CameraView(renderer, this.machine), () => this.shownView);
      this.pump = new FramePump(views, encoder, this.fps);
      this.pump.onFrame = (t) => this.onFrame?.(t);
      this.pump.start();
    }
    this.audio.start(Date.now());
    this.audioTimer = setInterval(() => this.pumpAudio(), AUDIO_TICK_MS);
    this.pumpAudio();
  }

  private pumpAudio(): void {
    const enc = this.encoder;
    if (!enc) return;
    const step = this.audio.next(Date.now(), enc.audioBacklogBytes);
    if (!step) return;
    const sound = this.mixer.render(step.sound);
    enc.writeAudio(step.silence ? Buffer.concat([Buffer.alloc(step.silence * 2), sound]) : sound);
  }

  /** ffmpeg ended by itself: restart after a growing pause, or give up and report. */
  private onEncoderFailed(stderr: string[], exit: string, ranMs: number): void {
    if (!this.target || this.encoder || this.retryTimer) return; // stopped or restarted meanwhile
    const id = this.machine.machineId;
    const cause = stderr[0] ?? exit;
    const detail = stderr[0] ? `${cause} (${exit})` : cause;
    const fast = ranMs < this.policy.fastFailureMs;
    this.failures = fast ? this.failures + 1 : 1;
    if (fast && this.failures >= this.policy.maxFastFailures) {
      this.failedCause = cause;
      this.log(
        `video of machine ${id} unavailable: the encoder failed ${this.failures} times in a row, each within ` +
          `${this.policy.fastFailureMs} ms: ${detail}; not retrying, machine reported as error`,
      );
      this.machine.setVideoFault(cause);
      return;
    }
    const delayMs = restartDelayMs(this.failures, this.policy);
    if (cause !== this.loggedCause) {
      this.loggedCause = cause;
      this.log(
        `encoder for machine ${id} failed after ${ranMs} ms: ${detail}; retrying with backoff from ${delayMs} ms`,
      );
    }
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.target && !this.encoder) {
        this.restarts++;
        this.launch();
      }
    }, delayMs);
  }

  private async stopEncoder(): Promise<void> {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.healthyTimer) clearTimeout(this.healthyTimer);
    this.healthyTimer = null;
    this.pump?.stop();
    this.pump = null;
    if (this.audioTimer) clearInterval(this.audioTimer);
    this.audioTimer = null;
    const enc = this.encoder;
    this.encoder = null;
    await enc?.stop();
  }
}
