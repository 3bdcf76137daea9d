import { isVp8KeyframeStart } from '../rtp.js';

/** Bound on cached packets: a 1 s GOP at 1.2 Mbit/s is about 130 packets. */
const MAX_PACKETS = 1500;

/**
 * Packets since the last keyframe (like Janus' videobufferkf): sent first to a new viewer so it
 * decodes a picture at once instead of waiting up to a keyframe interval.
 */
export class GopCache {
  private packets: Buffer[] = [];
  private haveKeyframe = false;
  keyframes = 0;

  push(p: Buffer): void {
    if (isVp8KeyframeStart(p)) {
      this.packets = [];
      this.haveKeyframe = true;
      this.keyframes++;
    }
    if (!this.haveKeyframe) return;
    if (this.packets.length >= MAX_PACKETS) {
      // A GOP this long means the keyframe interval is broken; start over at the next keyframe.
      this.packets = [];
      this.haveKeyframe = false;
      return;
    }
    this.packets.push(p);
  }

  /** The cached packets, oldest first (copies are not needed: packets are never modified later). */
  snapshot(): readonly Buffer[] {
    return this.packets;
  }

  get size(): number {
    return this.packets.length;
  }

  clear(): void {
    this.packets = [];
    this.haveKeyframe = false;
  }
}
