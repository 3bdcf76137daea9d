/** An RTP packet with a VP8 payload descriptor (X=1, I=1, 15-bit PictureID) like ffmpeg sends. */
export function vp8Packet(seq: number, ts: number, opts: { start: boolean; key: boolean; ssrc?: number }): Buffer {
  const header = Buffer.alloc(12);
  header[0] = 0x80;
  header[1] = 96;
  header.writeUInt16BE(seq & 0xffff, 2);
  header.writeUInt32BE(ts >>> 0, 4);
  header.writeUInt32BE(opts.ssrc ?? 1234, 8);
  const descriptor = Buffer.from([0x80 | (opts.start ? 0x10 : 0), 0x80, 0x80, 0x01]);
  const vp8 = Buffer.from([opts.key ? 0x10 : 0x11, 0, 0, 0x9d, 0x01, 0x2a]);
  return Buffer.concat([header, descriptor, opts.start ? vp8 : Buffer.from([1, 2, 3])]);
}
