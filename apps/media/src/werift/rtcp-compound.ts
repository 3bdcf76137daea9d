/**
 * A runtime fix for werift 0.24's RTCP compound parsing (no fork, no patch-package).
 *
 * The bug (werift 0.24.4, `lib/rtp/src/rtcp/rtcp.js`, `RtcpPacketConverter.deSerialize`, line 20):
 * each packet of a compound datagram is parsed from `data.subarray(pos)`, the rest of the datagram,
 * instead of `data.subarray(pos, pos + header.length * 4)`. Parsers that read a fixed count (RR, SR,
 * REMB) do not notice; `GenericNack.deSerialize` (`rtpfb/nack.js`) reads PID/BLP pairs to the end of
 * what it is given, so every packet after a NACK in the same compound (Chrome sends each NACK in a
 * compound with a receiver report and often REMB or more) came out as more "lost" sequence numbers:
 * NACK(100) followed by one RR became 30 numbers. The viewer then looked up ~5 packets that were
 * never asked for per one it resent, and sometimes resent a wrong one. The padding bit has the same
 * fault (werift strips the datagram's last byte's worth, not the packet's). A second, smaller fault:
 * `pid + diff + 1` is not wrapped, so a NACK around sequence 65535 names 65536, 65537, …
 *
 * The fix: `RtcpPacketConverter.deSerialize` is wrapped so that werift's own parser only ever sees
 * one packet at a time, cut at that packet's length field ((length + 1) * 4 bytes, RFC 3550 §6.4.1),
 * and NACKed sequence numbers are taken modulo 2^16. werift's DtlsTransport calls the class's static
 * method through the module object for every decrypted SRTCP datagram (`transport/dtls.js`), so the
 * router, the sender's `onGenericNack`, `nackCount` and the receiver-report handling all see the
 * corrected packets. Installed once per process by viewer.ts; pinned to werift 0.24.x like
 * werift-sender.ts, and rtcp-compound.test.ts fails when werift's own parser stops misreading (then
 * this module can go).
 */
import { GenericNack, RtcpPacketConverter, RtcpTransportLayerFeedback, type RtcpPacket } from 'werift';

const RTCP_HEADER_SIZE = 4;

/** werift's parser as shipped (kept for the test that checks whether werift still needs this fix). */
export const weriftDeserialize: (data: Buffer) => RtcpPacket[] =
  RtcpPacketConverter.deSerialize.bind(RtcpPacketConverter);

/**
 * The packets of a compound RTCP datagram, each cut at its own length field. A truncated last
 * packet (its length runs past the datagram) is dropped, as are trailing bytes too short for a header.
 */
export function splitCompoundRtcp(data: Buffer): Buffer[] {
  const packets: Buffer[] = [];
  let pos = 0;
  while (pos + RTCP_HEADER_SIZE <= data.length) {
    const size = (data.readUInt16BE(pos + 2) + 1) * 4;
    if (pos + size > data.length) break;
    packets.push(data.subarray(pos, pos + size));
    pos += size;
  }
  return packets;
}

/** werift's parse, one packet at a time, with NACKed sequence numbers wrapped to 16 bits. */
export function deserializeRtcp(data: Buffer): RtcpPacket[] {
  const out: RtcpPacket[] = [];
  for (const one of splitCompoundRtcp(data)) {
    for (const packet of weriftDeserialize(one)) {
      if (packet instanceof RtcpTransportLayerFeedback && packet.feedback instanceof GenericNack) {
        packet.feedback.lost = packet.feedback.lost.map((seq) => seq & 0xffff);
      }
      out.push(packet);
    }
  }
  return out;
}

let installed = false;

/** Makes werift parse incoming RTCP with `deserializeRtcp`, process-wide; idempotent. */
export function installRtcpCompoundFix(): void {
  if (installed) return;
  installed = true;
  RtcpPacketConverter.deSerialize = deserializeRtcp;
}
