import { describe, expect, it } from 'vitest';
import { PictureIdWidener, isRtcp, shortPictureId } from './vp8-picture-id.js';

/** A VP8 RTP packet as ffmpeg 4.x writes it: X=1, S on the first packet, I=1, a 7-bit picture ID. */
function packet(opts: { pictureId: number; ssrc?: number; seq?: number; start?: boolean; extension?: boolean }): Buffer {
  const header = Buffer.alloc(12);
  header[0] = 0x80 | (opts.extension ? 0x10 : 0);
  header[1] = 96;
  header.writeUInt16BE(opts.seq ?? 1, 2);
  header.writeUInt32BE(90_000, 4);
  header.writeUInt32BE(opts.ssrc ?? 0x1111, 8);
  // One-word header extension (RFC 8285 one-byte form), as a forwarder might add.
  const extension = opts.extension ? Buffer.from([0xbe, 0xde, 0x00, 0x01, 0x10, 0xaa, 0x00, 0x00]) : Buffer.alloc(0);
  const descriptor = Buffer.from([opts.start === false ? 0x80 : 0x90, 0x80, opts.pictureId & 0x7f]);
  return Buffer.concat([header, extension, descriptor, Buffer.from([0x9d, 0x01, 0x2a, 0xee])]);
}

/** The 15-bit picture ID of a widened packet. */
function wideId(p: Buffer, extension = false): number {
  const at = 12 + (extension ? 8 : 0);
  expect(p[at + 2]! & 0x80, 'M bit set: the 15-bit form').toBe(0x80);
  return ((p[at + 2]! & 0x7f) << 8) | p[at + 3]!;
}

describe('7-bit VP8 picture IDs widened to 15 bits', () => {
  it('reads the short form and leaves everything else alone', () => {
    expect(shortPictureId(packet({ pictureId: 5 }))).toBe(5);
    const long = packet({ pictureId: 5 });
    long[14] = 0x80; // M bit: already the 15-bit form
    expect(shortPictureId(long)).toBeNull();
    const noId = packet({ pictureId: 5 });
    noId[13] = 0x00; // I bit clear
    expect(shortPictureId(noId)).toBeNull();
    expect(new PictureIdWidener().widen(long)).toBe(long);
    expect(shortPictureId(Buffer.alloc(8))).toBeNull();
  });

  it('counts on across the wrap at 128, keeping the rest of the packet byte for byte', () => {
    const widener = new PictureIdWidener();
    const ids: number[] = [];
    for (let frame = 0; frame < 300; frame++) {
      const p = packet({ pictureId: frame, seq: frame });
      const out = widener.widen(p);
      expect(out.length).toBe(p.length + 1);
      expect(out.subarray(0, 12 + 2).equals(p.subarray(0, 12 + 2))).toBe(true);
      expect(out.subarray(12 + 4).equals(p.subarray(12 + 3))).toBe(true);
      ids.push(wideId(out));
    }
    expect(ids).toEqual(Array.from({ length: 300 }, (_, i) => i));
  });

  it('gives every packet of a frame the same ID, and a late packet of an older frame its own', () => {
    const widener = new PictureIdWidener();
    const seen = [126, 126, 127, 127, 0, 0, 127, 1].map((id) => wideId(widener.widen(packet({ pictureId: id }))));
    expect(seen).toEqual([126, 126, 127, 127, 128, 128, 127, 129]);
  });

  it('finds the descriptor after a header extension', () => {
    const widener = new PictureIdWidener();
    widener.widen(packet({ pictureId: 127, extension: true }));
    expect(wideId(widener.widen(packet({ pictureId: 0, extension: true })), true)).toBe(128);
  });

  it('a new encoder run (new SSRC, IDs from 0 again) continues from the last ID', () => {
    const widener = new PictureIdWidener();
    for (let id = 0; id < 40; id++) widener.widen(packet({ pictureId: id, ssrc: 1 }));
    expect(wideId(widener.widen(packet({ pictureId: 0, ssrc: 2 })))).toBe(40);
    expect(wideId(widener.widen(packet({ pictureId: 1, ssrc: 2 })))).toBe(41);
  });

  it('wraps at 2^15 as the 15-bit form does', () => {
    const widener = new PictureIdWidener();
    const p = packet({ pictureId: 0 });
    let last = p;
    for (let frame = 0; frame < 0x8000 + 3; frame++) {
      p[14] = frame & 0x7f;
      last = widener.widen(p);
    }
    expect(wideId(last)).toBe(2);
  });

  it('tells RTCP from RTP', () => {
    expect(isRtcp(Buffer.from([0x80, 200, 0, 6]))).toBe(true);
    expect(isRtcp(packet({ pictureId: 1 }))).toBe(false);
  });
});
