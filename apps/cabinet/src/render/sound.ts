/**
 * Cabinet sounds, synthesised once as 48 kHz mono PCM, and a mixer that produces a continuous
 * stream (silence between cues) paced by the wall clock, so the Opus track never stalls and audio
 * stays in step with the video.
 */
import type { SoundCue } from '../game/machine-types.js';

export const SAMPLE_RATE = 48_000;
const CHUNK_MS = 20;
export const SAMPLES_PER_CHUNK = (SAMPLE_RATE * CHUNK_MS) / 1000;

type Voice = { pcm: Float32Array; offset: number };

function tone(
  freqs: readonly number[],
  noteMs: number,
  opts: { decay?: number; wave?: 'sine' | 'square' | 'tri'; gain?: number } = {},
): Float32Array {
  const noteLen = Math.round((SAMPLE_RATE * noteMs) / 1000);
  const out = new Float32Array(noteLen * freqs.length);
  const { decay = 6, wave = 'sine', gain = 0.35 } = opts;
  freqs.forEach((f, n) => {
    for (let i = 0; i < noteLen; i++) {
      const t = i / SAMPLE_RATE;
      const phase = 2 * Math.PI * f * t;
      const v =
        wave === 'sine'
          ? Math.sin(phase)
          : wave === 'square'
            ? Math.sign(Math.sin(phase)) * 0.5
            : (2 / Math.PI) * Math.asin(Math.sin(phase));
      const attack = Math.min(1, i / 96);
      out[n * noteLen + i] = v * gain * attack * Math.exp((-decay * i) / noteLen);
    }
  });
  return out;
}

function thunk(): Float32Array {
  const len = Math.round(SAMPLE_RATE * 0.09);
  const out = new Float32Array(len);
  let seed = 7;
  for (let i = 0; i < len; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const noise = (seed / 0x7fffffff - 0.5) * 0.4;
    const env = Math.exp((-8 * i) / len);
    out[i] = (Math.sin((2 * Math.PI * 110 * i) / SAMPLE_RATE) * 0.5 + noise) * env * 0.6;
  }
  return out;
}

function whirr(): Float32Array {
  // Reel motor: a ticking buzz that rises, about as long as a spin.
  const len = Math.round(SAMPLE_RATE * 0.8);
  const out = new Float32Array(len);
  for (let i = 0; i < len; i++) {
    const t = i / SAMPLE_RATE;
    const tick = Math.sin(2 * Math.PI * 38 * t) > 0.7 ? 1 : 0.25;
    const env = Math.min(1, i / 2400) * Math.exp((-1.5 * i) / len);
    out[i] = Math.sin(2 * Math.PI * (220 + 200 * t) * t) * tick * env * 0.18;
  }
  return out;
}

const CUES: Record<SoundCue, Float32Array> = {
  spin: whirr(),
  reel_stop: thunk(),
  win: tone([523.25, 659.25, 783.99], 90, { wave: 'tri' }),
  big_win: tone([523.25, 659.25, 783.99, 1046.5, 783.99, 1046.5, 1318.5], 110, {
    wave: 'square',
    gain: 0.25,
  }),
  bonus: tone([392, 523.25, 659.25, 783.99, 1046.5, 1318.5, 1567.98], 80, { wave: 'tri' }),
  credit: tone([1318.5, 1975.5], 70, { decay: 4 }),
  cash_out: tone([1046.5, 880, 783.99, 659.25, 523.25], 90, { wave: 'tri' }),
};

/** Sums the voices that are playing into 16-bit PCM. */
export class SoundMixer {
  private voices: Voice[] = [];
  private readonly scheduled: { atMs: number; cue: SoundCue }[] = [];

  play(cue: SoundCue): void {
    this.voices.push({ pcm: CUES[cue], offset: 0 });
    if (this.voices.length > 8) this.voices.shift();
  }

  /** Plays a cue at a wall-clock time (a reel landing), checked on each chunk. */
  schedule(cue: SoundCue, atMs: number): void {
    this.scheduled.push({ atMs, cue });
  }

  get active(): number {
    return this.voices.length;
  }

  /** Next `samples` samples as s16le. */
  render(samples: number, nowMs = Date.now()): Buffer {
    for (let i = this.scheduled.length - 1; i >= 0; i--) {
      if (this.scheduled[i]!.atMs <= nowMs) {
        this.play(this.scheduled[i]!.cue);
        this.scheduled.splice(i, 1);
      }
    }
    const out = Buffer.alloc(samples * 2);
    if (this.voices.length === 0) return out;
    for (let i = 0; i < samples; i++) {
      let v = 0;
      for (const voice of this.voices)
        if (voice.offset + i < voice.pcm.length) v += voice.pcm[voice.offset + i]!;
      out.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(v * 32767))), i * 2);
    }
    for (const voice of this.voices) voice.offset += samples;
    this.voices = this.voices.filter((v) => v.offset < v.pcm.length);
    return out;
  }
}
