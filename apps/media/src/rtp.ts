/**
 * Minimal RTP helpers for forwarding without re-encoding: header fields in place, VP8 keyframe
 * detection, and a rewriter that keeps one continuous stream across encoder restarts.
 */

/** The payload types the cabinets' ffmpeg sends, and both backends forward as they are. */
export const VIDEO_PAYLOAD_TYPE = 96;
export const AUDIO_PAYLOAD_TYPE = 111;

export const rtpSeq = (p: Buffer): number => p.readUInt16BE(2);
export const rtpTimestamp = (p: Buffer): number => p.readUInt32BE(4);
const rtpSsrc = (p: Buffer): number => p.readUInt32BE(8);

function rtpPayloadOffset(p: Buffer): number {
  if (p.length < 12) return -1;
  const cc = p[0]! & 0x0f;
  let o = 12 + cc * 4;
  if (p[0]! & 0x10) {
    if (p.length < o + 4) return -1;
    o += 4 + p.readUInt16BE(o + 2) * 4;
  }
  return o < p.length ? o : -1;
}

/**
 * True for the first packet of a VP8 keyframe (RFC 7741): start of partition 0 (S=1, PID=0) and
 * the inverse key-frame bit P of the VP8 payload header cleared.
 */
export function isVp8KeyframeStart(p: Buffer): boolean {
  let o = rtpPayloadOffset(p);
  if (o < 0) return false;
  const d = p[o]!;
  o++;
  if (d & 0x80) {
    const x = p[o]!;
    o++;
    if (x & 0x80) o += p[o]! & 0x80 ? 2 : 1; // PictureID, 7 or 15 bits
    if (x & 0x40) o++; // TL0PICIDX
    if (x & 0x30) o++; // TID/KEYIDX
  }
  const start = (d & 0x10) !== 0 && (d & 0x07) === 0;
  return start && o < p.length && (p[o]! & 0x01) === 0;
}

/** Sequence jumps bigger than this are a new encoder, not loss (loopback barely loses packets). */
const RESTART_SEQ_GAP = 500;

/**
 * Rewrites sequence numbers and timestamps so the output is continuous when the source restarts
 * (band switch, ffmpeg crash): the browser keeps one stream with no reset, and the first frame of
 * the new encoder (a keyframe) decodes at once. A restart is a new SSRC (the cabinet sends each
 * encoder run under SSRCs of its own) or, from a source that keeps its SSRC, a sequence jump.
 */
export class RtpContinuity {
  private seqOffset = 0;
  private tsOffset = 0;
  private lastInSeq: number | null = null;
  private lastSsrc: number | null = null;
  private lastOutSeq = 0;
  private lastOutTs = 0;
  private lastAtMs = 0;
  restarts = 0;

  constructor(private readonly clockRate: number) {}

  /** Rewrites `p` in place; `nowMs` is the arrival time. True when `p` starts a new source. */
  apply(p: Buffer, nowMs: number): boolean {
    const seq = rtpSeq(p);
    const ts = rtpTimestamp(p);
    const ssrc = rtpSsrc(p);
    const newSource = this.lastSsrc !== null && ssrc !== this.lastSsrc;
    this.lastSsrc = ssrc;
    let restarted = false;
    if (this.lastInSeq === null) {
      this.seqOffset = 0;
      this.tsOffset = 0;
    } else {
      const gap = (seq - this.lastInSeq + 0x10000) & 0xffff;
      if (newSource || (gap > RESTART_SEQ_GAP && gap < 0x10000 - RESTART_SEQ_GAP)) {
        // New source: continue right after the last packet sent, advanced by the wall-clock gap.
        this.restarts++;
        restarted = true;
        const elapsedTicks = Math.max(1, Math.round(((nowMs - this.lastAtMs) * this.clockRate) / 1000));
        this.seqOffset = (this.lastOutSeq + 1 - seq + 0x10000) & 0xffff;
        this.tsOffset = (this.lastOutTs + elapsedTicks - ts + 0x1_0000_0000) % 0x1_0000_0000;
      }
    }
    const outSeq = (seq + this.seqOffset) & 0xffff;
    const outTs = (ts + this.tsOffset) % 0x1_0000_0000;
    p.writeUInt16BE(outSeq, 2);
    p.writeUInt32BE(outTs, 4);
    this.lastInSeq = seq;
    this.lastOutSeq = outSeq;
    this.lastOutTs = outTs;
    this.lastAtMs = nowMs;
    return restarted;
  }
}
