import { describe, expect, it } from 'vitest';
import {
  GenericNack,
  ReceiverEstimatedMaxBitrate,
  RtcpPacketConverter,
  RtcpPayloadSpecificFeedback,
  RtcpRrPacket,
  RtcpTransportLayerFeedback,
  type RtcpPacket,
} from 'werift';
import {
  deserializeRtcp,
  installRtcpCompoundFix,
  splitCompoundRtcp,
  weriftDeserialize,
} from './rtcp-compound.js';

const BROWSER_SSRC = 0x0000_0001;
const MEDIA_SSRC = 0x0000_abcd;

/** A receiver report with one report block about MEDIA_SSRC (RFC 3550 §6.4.2), 32 bytes. */
function rr(cumulativeLost = 5, extHighestSeq = 0x1_2345): Buffer {
  const b = Buffer.alloc(32);
  b[0] = 0x81; // V=2, RC=1
  b[1] = 201;
  b.writeUInt16BE(32 / 4 - 1, 2);
  b.writeUInt32BE(BROWSER_SSRC, 4);
  b.writeUInt32BE(MEDIA_SSRC, 8);
  b.writeUInt32BE(cumulativeLost & 0xff_ffff, 12); // fraction lost 0, cumulative lost
  b.writeUInt32BE(extHighestSeq, 16);
  return b;
}

/** A generic NACK (RTPFB, FMT 1, RFC 4585 §6.2.1) with the given PID/BLP pairs. */
function nack(...fci: [pid: number, blp: number][]): Buffer {
  const b = Buffer.alloc(12 + fci.length * 4);
  b[0] = 0x81; // V=2, FMT=1
  b[1] = 205;
  b.writeUInt16BE(b.length / 4 - 1, 2);
  b.writeUInt32BE(BROWSER_SSRC, 4);
  b.writeUInt32BE(MEDIA_SSRC, 8);
  fci.forEach(([pid, blp], i) => {
    b.writeUInt16BE(pid, 12 + i * 4);
    b.writeUInt16BE(blp, 14 + i * 4);
  });
  return b;
}

/** REMB (PSFB, FMT 15): 1.2 Mbit/s for MEDIA_SSRC, as Chrome appends it. */
function remb(): Buffer {
  const b = Buffer.alloc(24);
  b[0] = 0x8f;
  b[1] = 206;
  b.writeUInt16BE(24 / 4 - 1, 2);
  b.writeUInt32BE(BROWSER_SSRC, 4);
  b.write('REMB', 12, 'ascii');
  // 1 SSRC, exponent 4, mantissa 75000: 1,200,000 bit/s
  b[16] = 1;
  b.writeUIntBE((4 << 18) | 75_000, 17, 3);
  b.writeUInt32BE(MEDIA_SSRC, 20);
  return b;
}

const nackedSeqs = (packets: RtcpPacket[]): number[][] =>
  packets.flatMap((p) =>
    p instanceof RtcpTransportLayerFeedback && p.feedback instanceof GenericNack ? [p.feedback.lost] : [],
  );

describe('RTCP compound parsing (werift fix)', () => {
  it('splits a compound at each packet’s own length', () => {
    const parts = splitCompoundRtcp(Buffer.concat([rr(), nack([100, 0]), rr()]));
    expect(parts.map((p) => p.length)).toEqual([32, 16, 32]);
    // A truncated last packet is dropped, not read past the datagram.
    expect(
      splitCompoundRtcp(Buffer.concat([rr(), nack([100, 0]).subarray(0, 12)])).map((p) => p.length),
    ).toEqual([32]);
  });

  it('reads a NACK between two receiver reports as exactly the NACKed sequence numbers', () => {
    const compound = Buffer.concat([rr(), nack([100, 0b101]), rr()]);
    const packets = deserializeRtcp(compound);
    expect(packets.map((p) => p.type)).toEqual([201, 205, 201]);
    expect(nackedSeqs(packets)).toEqual([[100, 101, 103]]);
    const report = (packets[2] as RtcpRrPacket).reports[0]!;
    expect([report.ssrc, report.packetsLost, report.highestSequence]).toEqual([MEDIA_SSRC, 5, 0x1_2345]);
  });

  it('keeps packets after the NACK intact (RR + NACK + REMB) and wraps sequence numbers at 65536', () => {
    const packets = deserializeRtcp(Buffer.concat([rr(), nack([65_534, 0b11], [7, 0]), remb()]));
    expect(nackedSeqs(packets)).toEqual([[65_534, 65_535, 0, 7]]);
    const psfb = packets[2] as RtcpPayloadSpecificFeedback;
    expect(psfb.feedback).toBeInstanceOf(ReceiverEstimatedMaxBitrate);
    expect((psfb.feedback as ReceiverEstimatedMaxBitrate).bitrate).toBe(1_200_000n);
  });

  it('is what werift’s transport calls once installed', () => {
    installRtcpCompoundFix();
    installRtcpCompoundFix();
    expect(RtcpPacketConverter.deSerialize).toBe(deserializeRtcp);
    expect(nackedSeqs(RtcpPacketConverter.deSerialize(Buffer.concat([rr(), nack([100, 0]), rr()])))).toEqual([
      [100],
    ]);
  });

  it('is still needed: werift’s own parser reads the RR after a NACK as more lost packets', () => {
    // When this fails after a werift upgrade, werift parses compounds itself: drop rtcp-compound.ts.
    const lost = nackedSeqs(weriftDeserialize(Buffer.concat([rr(), nack([100, 0]), rr()])))[0]!;
    expect(lost[0]).toBe(100);
    expect(lost.length).toBeGreaterThan(1);
  });
});
