/**
 * The live picture and sound of one machine: renderer → frame pump → ffmpeg, sound mixer → ffmpeg,
 * RTP to the target the server names. Switching band restarts ffmpeg at the new size with the same
 * SSRCs and payload types; the forwarder smooths sequence numbers and timestamps across the
 * restart, so the viewer's session continues and the first new frame is a keyframe.
 */
import type { QualityBand, StreamTarget } from '@reel/protocol';
import type { SlotMachine } from '../game/machine.js';
import { CabinetRenderer } from '../render/renderer.js';
import { SAMPLES_PER_CHUNK, SAMPLE_RATE, SoundMixer } from '../render/sound.js';
import { DEFAULT_BANDS, DEFAULT_BAND_ID } from './bands.js';
import { Encoder, type VideoSource } from './encoder.js';
import { FramePump } from './frame-pump.js';

const AUDIO_TICK_MS = 20;
/** Audio queued beyond this is dropped rather than delayed. */
const MAX_AUDIO_BACKLOG_BYTES = SAMPLE_RATE * 2 * 0.1;
const MAX_AUDIO_CATCHUP_SAMPLES = SAMPLES_PER_CHUNK * 10;

export interface MachineStreamOptions {
  ffmpegPath: string;
  bands?: readonly QualityBand[];
  source?: VideoSource;
  title?: string;
  log?: (msg: string) => void;
}

export class MachineStream {
  readonly bands: readonly QualityBand[];
  readonly mixer = new SoundMixer();
  private readonly renderers = new Map<string, CabinetRenderer>();
  private encoder: Encoder | null = null;
  private pump: FramePump | null = null;
  private audioTimer: NodeJS.Timeout | null = null;
  private target: StreamTarget | null = null;
  private bandId = DEFAULT_BAND_ID;
  private audioStartMs = 0;
  private audioSamples = 0;
  private restarts = 0;
  private stopping = false;
  onFrame: ((renderedAtMs: number) => void) | null = null;

  constructor(
    private readonly machine: SlotMachine,
    private readonly opts: MachineStreamOptions,
  ) {
    this.bands = opts.bands ?? DEFAULT_BANDS;
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
  get stats(): { framesWritten: number; framesSkipped: number; restarts: number; band: string } {
    return {
      framesWritten: this.pump?.framesWritten ?? 0,
      framesSkipped: this.pump?.framesSkipped ?? 0,
      restarts: this.restarts,
      band: this.bandId,
    };
  }

  /** The renderer for a band (created on first use; the picture scales to the band). */
  renderer(band: QualityBand = this.currentBand): CabinetRenderer {
    let r = this.renderers.get(band.id);
    if (!r) {
      r = new CabinetRenderer(this.machine, {
        width: band.width,
        height: band.height,
        title: this.opts.title ?? 'LUCKY REELS',
      });
      this.renderers.set(band.id, r);
    }
    return r;
  }

  hasBand(bandId: string): boolean {
    return this.bands.some((b) => b.id === bandId);
  }

  async start(target: StreamTarget): Promise<void> {
    await this.stopEncoder();
    this.target = target;
    if (this.hasBand(target.bandId)) this.bandId = target.bandId;
    this.stopping = false;
    this.launch();
  }

  async setBand(bandId: string): Promise<void> {
    if (!this.hasBand(bandId)) throw new Error('unknown_band');
    if (bandId === this.bandId && this.encoder) return;
    this.bandId = bandId;
    if (!this.target) return;
    await this.stopEncoder();
    this.stopping = false;
    this.launch();
  }

  async stop(): Promise<void> {
    this.target = null;
    await this.stopEncoder();
  }

  private launch(): void {
    const target = this.target!;
    const band = this.currentBand;
    const renderer = this.renderer(band);
    renderer.timestampStrip = target.timestampStrip ?? false;
    const encoder = new Encoder({
      ffmpegPath: this.opts.ffmpegPath,
      target,
      band,
      ...(this.opts.source ? { source: this.opts.source } : {}),
      onLog: (line) => this.opts.log?.(`ffmpeg[${this.machine.machineId}]: ${line}`),
      onExit: (code, signal) => {
        if (this.encoder !== encoder || this.stopping) return;
        // ffmpeg died under us: restart after a pause, keeping the same target.
        this.opts.log?.(
          `encoder for machine ${this.machine.machineId} exited (${code ?? signal}); restarting`,
        );
        void this.stopEncoder().then(() => {
          setTimeout(() => {
            if (this.target && !this.encoder) {
              this.restarts++;
              this.launch();
            }
          }, 500);
        });
      },
    });
    encoder.start();
    this.encoder = encoder;
    if (encoder.source.kind === 'canvas') {
      this.pump = new FramePump(renderer, encoder);
      this.pump.onFrame = (t) => this.onFrame?.(t);
      this.pump.start();
    }
    this.audioStartMs = Date.now();
    this.audioSamples = 0;
    this.audioTimer = setInterval(() => this.pumpAudio(), AUDIO_TICK_MS);
    this.pumpAudio();
  }

  private pumpAudio(): void {
    const enc = this.encoder;
    if (!enc) return;
    const due = Math.floor(((Date.now() - this.audioStartMs) * SAMPLE_RATE) / 1000) - this.audioSamples;
    if (due <= 0) return;
    const n = Math.min(due, MAX_AUDIO_CATCHUP_SAMPLES);
    this.audioSamples += due;
    if (enc.audioBacklogBytes > MAX_AUDIO_BACKLOG_BYTES) return;
    enc.writeAudio(this.mixer.render(n));
  }

  private async stopEncoder(): Promise<void> {
    this.stopping = true;
    this.pump?.stop();
    this.pump = null;
    if (this.audioTimer) clearInterval(this.audioTimer);
    this.audioTimer = null;
    const enc = this.encoder;
    this.encoder = null;
    await enc?.stop();
  }
}
