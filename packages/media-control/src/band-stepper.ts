/**
 * When to step a machine's quality band down or up, from what its viewers' browsers report: the
 * fraction of video packets lost (RTCP receiver reports) and, when the browser sends one, its
 * receive-bandwidth estimate (REMB). One sample a second, the worst viewer of the machine.
 *
 * Down quickly on persistent trouble (a few bad seconds in a row: one lost burst is not a trend,
 * and NACK/RTX repair single losses); up slowly and only after a long clean spell, so the picture
 * does not flap between bands on a borderline link. The bands themselves are the cabinet's
 * (the spec's bands list, DEFAULT_QUALITY_BANDS); the server picks the neighbour band.
 */
export const STEP_DOWN_LOSS = 0.05;
export const STEP_UP_LOSS = 0.01;
export const BAD_SECONDS_TO_STEP_DOWN = 3;
export const GOOD_SECONDS_TO_STEP_UP = 15;
/** After any change, wait this long before the next: the new band needs time to show its effect. */
export const MIN_SECONDS_BETWEEN_STEPS = 10;
/** An estimate below this share of the band's bitrate counts as too little bandwidth. */
export const ESTIMATE_HEADROOM = 0.8;

export interface LinkSample {
  /** Fraction of packets lost in the last report interval, 0..1 (null: no report yet). */
  lossFraction: number | null;
  /** The browser's receive-bandwidth estimate, kbit/s (null or 0: none sent). */
  estimateKbps: number | null;
}

export type BandStep = 'down' | 'up' | null;

export class BandStepper {
  private bad = 0;
  private good = 0;
  private sinceStep = MIN_SECONDS_BETWEEN_STEPS;

  /**
   * One second's sample. `bandKbps` is the current band's bitrate, `upperBandKbps` the next band
   * up's (null at the top), `lowest` whether there is no band below.
   */
  sample(s: LinkSample, bandKbps: number, upperBandKbps: number | null, lowest: boolean): BandStep {
    this.sinceStep++;
    const estimate = s.estimateKbps && s.estimateKbps > 0 ? s.estimateKbps : null;
    const loss = s.lossFraction ?? 0;
    const starved = estimate !== null && estimate < bandKbps * ESTIMATE_HEADROOM;
    const roomAbove =
      upperBandKbps !== null && (estimate === null || estimate >= upperBandKbps / ESTIMATE_HEADROOM);
    this.bad = loss > STEP_DOWN_LOSS || starved ? this.bad + 1 : 0;
    this.good = s.lossFraction !== null && loss < STEP_UP_LOSS && !starved ? this.good + 1 : 0;
    if (this.sinceStep < MIN_SECONDS_BETWEEN_STEPS) return null;
    if (!lowest && this.bad >= BAD_SECONDS_TO_STEP_DOWN) return this.stepped('down');
    if (roomAbove && this.good >= GOOD_SECONDS_TO_STEP_UP) return this.stepped('up');
    return null;
  }

  private stepped(step: 'down' | 'up'): BandStep {
    this.sinceStep = 0;
    this.bad = 0;
    this.good = 0;
    return step;
  }
}
