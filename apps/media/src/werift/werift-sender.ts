/**
 * The few internals of werift's RTCRtpSender (0.24.x) the viewer relies on, typed in one place so a
 * werift upgrade that changes them fails the type check here rather than silently at run time.
 *
 * - NACKs: werift answers them itself from a 128-packet history; the viewer answers from the
 *   ingest's larger, shared RetransmitBuffer instead, so werift's history is switched off
 *   (`disableBuiltInRetransmission`) to avoid sending every lost packet twice.
 * - RTX: werift negotiates the RTX payload type and SSRC; we read them to wrap retransmissions.
 * - Bandwidth: REMB feeds the band stepper (loss comes from the receiver reports' cumulative
 *   counts, receiver-loss.ts, not from werift's `remoteFractionLost`).
 */
import type { RTCRtpSender } from 'werift';

interface SenderInternals {
  rtxPayloadType?: number;
  rtxSequenceNumber: number;
  rtxSsrc: number;
  ssrc: number;
  retransmittedPacketsSent: number;
  retransmittedBytesSent: number;
  rtt?: number;
  receiverEstimatedMaxBitrate: bigint;
  nackCount: number;
  pliCount: number;
}

export function internals(sender: RTCRtpSender): SenderInternals {
  return sender as unknown as SenderInternals;
}

/** werift writes each sent packet to `rtpCache` and looks NACKed ones up there: give it nothing. */
export function disableBuiltInRetransmission(sender: RTCRtpSender): void {
  Object.defineProperty(sender, 'rtpCache', {
    configurable: true,
    get: () => [],
    set: () => {},
  });
}
