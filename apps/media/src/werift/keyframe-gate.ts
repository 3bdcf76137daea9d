/**
 * A spectator who falls behind delays nobody and gets no backlog: its viewer drops the video
 * packets up to the next keyframe (the encoder makes one a second) and goes on live from there.
 * Nothing is queued per viewer and the encoder is never asked for a keyframe on a spectator's
 * account (that would restart it for the player and every other watcher).
 *
 * The viewer's sequence numbers close the gap (each packet after a skip carries its number minus
 * the packets dropped so far), so the browser sees a stream that jumps in time, not lost packets
 * it would NACK; `originalSeq` maps a NACKed number back to the ingest's for retransmission.
 */
import { isVp8KeyframeStart } from '../rtp.js';

export class KeyframeGate {
  private skipping = false;
  /** Packets dropped so far, mod 2^16. */
  private dropped = 0;
  /** How many times the viewer skipped to a keyframe (stats). */
  skips = 0;
  droppedPackets = 0;

  /** From now on, drop video until the next keyframe starts. */
  skipToKeyframe(): void {
    if (this.skipping) return;
    this.skipping = true;
    this.skips++;
  }

  get isSkipping(): boolean {
    return this.skipping;
  }

  /** The packet to send for `p` (renumbered when packets were dropped before it), or null to drop it. */
  pass(p: Buffer): Buffer | null {
    if (this.skipping) {
      if (!isVp8KeyframeStart(p)) {
        this.dropped = (this.dropped + 1) & 0xffff;
        this.droppedPackets++;
        return null;
      }
      this.skipping = false;
    }
    if (this.dropped === 0) return p;
    const copy = Buffer.from(p);
    copy.writeUInt16BE((p.readUInt16BE(2) - this.dropped) & 0xffff, 2);
    return copy;
  }

  /** The ingest's sequence number of the packet the viewer knows as `seq`. */
  originalSeq(seq: number): number {
    return (seq + this.dropped) & 0xffff;
  }
}
