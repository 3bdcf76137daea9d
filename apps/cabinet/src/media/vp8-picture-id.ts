/**
 * Why the bundled 2018 ffmpeg froze the picture every 4.3 s, and the cure.
 *
 * ffmpeg's VP8 RTP packetizer of the 4.x era (the @ffmpeg-installer 2018 build, also 4.2.1) writes
 * the payload descriptor's picture ID in its short, 7-bit form (RFC 7741 §4.2, M bit clear), counting
 * 0 … 127 and wrapping every 128 frames; Debian's 5.1 writes the 15-bit form. Chrome reads picture
 * IDs as 15-bit numbers whatever their form (its frame-ID reference finder unwraps modulo 2^15), so
 * at every wrap the ID seems to step 127 frames back: its frame buffer drops each following frame as
 * already decoded past, until a keyframe with a newer timestamp clears it. The picture stands still
 * for up to a keyframe interval (1 s) every 128 frames.
 *
 * `PictureIdWidener` rewrites each video packet's 7-bit picture ID as a 15-bit one that counts on
 * across the wrap (the packet grows by one byte), and across encoder runs: a new SSRC (each run has
 * its own, encoder.ts `ssrcOfRun`) continues from the last ID instead of starting at 0 again.
 */

/** Where the VP8 payload descriptor starts: after the fixed header, CSRCs and a header extension. */
function payloadOffset(packet: Buffer): number | null {
  if (packet.length < 12 || packet[0]! >> 6 !== 2) return null;
  let offset = 12 + (packet[0]! & 0x0f) * 4;
  if (packet[0]! & 0x10) {
    if (packet.length < offset + 4) return null;
    offset += 4 + packet.readUInt16BE(offset + 2) * 4;
  }
  return offset;
}

/** The 7-bit picture ID of a VP8 RTP packet (X and I set, M clear), or null when it has none. */
export function shortPictureId(packet: Buffer): number | null {
  const at = payloadOffset(packet);
  if (at === null || packet.length < at + 3) return null;
  if (!(packet[at]! & 0x80) || !(packet[at + 1]! & 0x80) || packet[at + 2]! & 0x80) return null;
  return packet[at + 2]! & 0x7f;
}

/** RTCP (sender reports and the like) shares the relay's socket: payload types 200–204. */
export const isRtcp = (packet: Buffer): boolean => packet.length >= 2 && packet[1]! >= 200 && packet[1]! <= 204;

export class PictureIdWidener {
  private ssrc: number | null = null;
  private lastShort = 0;
  private lastWide = 0;

  /** The packet with a 15-bit picture ID; packets without a 7-bit one come back unchanged. */
  widen(packet: Buffer): Buffer {
    const short = shortPictureId(packet);
    if (short === null) return packet;
    const wide = this.wideId(packet.readUInt32BE(8), short);
    const at = payloadOffset(packet)!;
    const out = Buffer.allocUnsafe(packet.length + 1);
    packet.copy(out, 0, 0, at + 2);
    out[at + 2] = 0x80 | (wide >> 8);
    out[at + 3] = wide & 0xff;
    packet.copy(out, at + 4, at + 3);
    return out;
  }

  private wideId(ssrc: number, short: number): number {
    if (ssrc !== this.ssrc) {
      // A new encoder run starts at 0 again: carry on from the last ID instead (its first frame is a keyframe).
      this.lastWide = this.ssrc === null ? short : (this.lastWide + 1) & 0x7fff;
      this.ssrc = ssrc;
      this.lastShort = short;
      return this.lastWide;
    }
    // Steps forward of up to half the 7-bit range are new frames; a step "back" is an older packet.
    const step = (short - this.lastShort) & 0x7f;
    if (step >= 64) return (this.lastWide - (128 - step)) & 0x7fff;
    this.lastShort = short;
    this.lastWide = (this.lastWide + step) & 0x7fff;
    return this.lastWide;
  }
}
