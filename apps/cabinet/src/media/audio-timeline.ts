/**
 * How much sound to hand the encoder, so that its audio timeline never falls behind the wall clock.
 *
 * ffmpeg stamps the picture with the wall clock (`-use_wallclock_as_timestamps`) and the sound with
 * its sample count (raw PCM carries no time), and it always serves the output whose last timestamp
 * is lowest; while that one has no input ready it serves nothing else (ffmpeg's `choose_output`). So
 * every stretch of wall-clock time the sound misses stays as a lead of the picture over the sound,
 * and each video frame waits in ffmpeg until the sound has caught up with it: the picture comes
 * late by that much, in bursts, at a fraction of its frame rate, and Chrome reads the bursts as
 * jitter (what the player's "Weak connection" said after the encoder had been stopped for 2 s).
 *
 * The sound used to be cut to stay fresh: time that could not be written while ffmpeg was not
 * reading (its pipe backed up) was dropped, and so was catch-up beyond a few chunks after the
 * cabinet's own stalls. Now nothing is dropped: while the pipe is backed up nothing is written,
 * and once ffmpeg reads again the missed time goes in as silence, followed by the mixer's sound
 * for the latest chunks, so the sample count matches the wall clock again.
 */

interface AudioTimelineOptions {
  sampleRate: number;
  /** The latest samples mixed with sound when catching up; older missed time goes in as silence. */
  maxSoundSamples: number;
  /** More than this many bytes waiting in the pipe: ffmpeg is not reading, write nothing now. */
  maxBacklogBytes: number;
  /** Silence written at once at most (the rest follows on the next calls). */
  maxSilenceSamples: number;
}

interface AudioStep {
  /** Samples of silence first (time the encoder did not take in time), then `sound` mixed samples. */
  silence: number;
  sound: number;
}

export class AudioTimeline {
  private startMs = 0;
  private written = 0;

  constructor(private readonly o: AudioTimelineOptions) {}

  /** A new encoder run: its sound starts now. */
  start(nowMs: number): void {
    this.startMs = nowMs;
    this.written = 0;
  }

  /** Samples the encoder has been given (silence included). */
  get samplesWritten(): number {
    return this.written;
  }

  /** What to write now, or null (nothing due, or the encoder is not reading). */
  next(nowMs: number, backlogBytes: number): AudioStep | null {
    const due = Math.floor(((nowMs - this.startMs) * this.o.sampleRate) / 1000) - this.written;
    if (due <= 0 || backlogBytes > this.o.maxBacklogBytes) return null;
    const sound = Math.min(due, this.o.maxSoundSamples);
    // A long stall: silence only, in pieces, before the sound of the latest chunks.
    const step = due - sound > this.o.maxSilenceSamples ? { silence: this.o.maxSilenceSamples, sound: 0 } : { silence: due - sound, sound };
    this.written += step.silence + step.sound;
    return step;
  }
}
