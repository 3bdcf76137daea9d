/**
 * The loss a viewer's browser sees on our video stream, as band control should read it: from the
 * cumulative counts of its receiver reports over about a second (RFC 3550 §6.4.1 and A.3), not from
 * the latest report's own "fraction lost".
 *
 * Why: Chrome sends a receiver report in the compound with every NACK, i.e. right after it has seen
 * a gap, and each report's fraction lost covers only the time since the previous one (often tens of
 * milliseconds), with a negative count clipped to 0. Under reordering jitter packets that are merely
 * late count as lost in one report and the report in which they arrive says 0, not "minus": werift's
 * `remoteFractionLost` (the latest report's figure) read 50–94 % where nothing was lost (network
 * bench, jitter case). The cumulative count goes down again when a late packet arrives (Chrome:
 * lost = expected − received, and an out-of-order arrival counts as received), so its change over a
 * second is what was really lost: expected = Δ extended highest sequence number, lost = Δ cumulative
 * packets lost, fraction = lost / expected clamped to [0, 1]. Packets recovered by RTX do not count
 * as received on the media SSRC in Chrome, so real loss still shows.
 */
const WINDOW_MS = 1000;

/** The two fields of a report block (werift's RtcpReceiverInfo) this needs. */
interface ReportBlock {
  /** Cumulative number of packets lost: 24 bits, signed (werift reads it unsigned). */
  packetsLost: number;
  /** Extended highest sequence number received: cycles << 16 | highest sequence number. */
  highestSequence: number;
}

interface Sample {
  atMs: number;
  extHighestSeq: number;
  cumulativeLost: number;
}

/** 24-bit two's complement: Chrome reports a negative count after duplicates. */
const signed24 = (v: number): number => (v & 0x80_0000 ? (v & 0xff_ffff) - 0x100_0000 : v & 0xff_ffff);

export class ReceiverLoss {
  /** samples[0] is the newest report at least `windowMs` before the latest, else the oldest. */
  private readonly samples: Sample[] = [];

  constructor(private readonly windowMs = WINDOW_MS) {}

  /** One report block about our stream, received at `nowMs`. */
  add(report: ReportBlock, nowMs: number): void {
    this.samples.push({
      atMs: nowMs,
      extHighestSeq: report.highestSequence >>> 0,
      cumulativeLost: signed24(report.packetsLost),
    });
    const cutoff = nowMs - this.windowMs;
    let base = 0;
    while (base + 1 < this.samples.length && this.samples[base + 1]!.atMs <= cutoff) base++;
    if (base > 0) this.samples.splice(0, base);
  }

  /**
   * Lost / expected between the base report and the latest one, in [0, 1]; null before two
   * reports. With no packets expected in between (nothing sent) it is 0.
   */
  fraction(): number | null {
    if (this.samples.length < 2) return null;
    const base = this.samples[0]!;
    const latest = this.samples[this.samples.length - 1]!;
    const expected = (latest.extHighestSeq - base.extHighestSeq) | 0;
    if (expected <= 0) return 0;
    const lost = latest.cumulativeLost - base.cumulativeLost;
    return Math.min(1, Math.max(0, lost / expected));
  }
}
