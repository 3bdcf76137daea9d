/**
 * One browser watching one machine, over werift. The browser offers (WHEP style), we answer with
 * send-only VP8 and Opus. After DTLS connects, the GOP cache goes out first, then live packets.
 *
 * Liveness: werift alone noticed a closed browser only after ~28 s. A receiving browser sends
 * RTCP (receiver reports, REMB/NACK) about every second, so no RTCP for LIVENESS_TIMEOUT_MS means
 * the viewer is gone; ICE failure or close ends it at once.
 */
import { randomBytes } from 'node:crypto';
import {
  GenericNack,
  RTCPeerConnection,
  RTCRtpCodecParameters,
  RTCRtpHeaderExtensionParameters,
  RTP_EXTENSION_URI,
  RtcpRrPacket,
  RtpPacket,
  useNACK,
  usePLI,
  useREMB,
  useTWCC,
  wrapRtx,
  type RTCRtpSender,
} from 'werift';
import { PLAYOUT_DELAY_URI, type IceServer, type ViewerCloseReason, type ViewerStats } from '@reel/protocol';
import type { MachineIngest, PacketSink } from './ingest.js';
import { disableBuiltInRetransmission, internals } from './werift-sender.js';
import { installRtcpCompoundFix } from './rtcp-compound.js';
import { ReceiverLoss } from './receiver-loss.js';
import { keepEarlyDtlsRecords } from './dtls-early-records.js';
import { KeyframeGate } from './keyframe-gate.js';

// werift 0.24 reads every packet after a NACK in a compound RTCP datagram as more lost sequence
// numbers (rtcp-compound.ts); fixed process-wide before any viewer parses RTCP.
installRtcpCompoundFix();

/**
 * 8 s, not less: a viewer behind a network blackout is alive but silent, and the fault rig showed a
 * 4 s limit ending the viewer during a 5 s blackout (picture back after ~5 s through a full
 * reconnect instead of at once, as with Janus, which keeps it). A crashed browser costs 8 s of
 * forwarding instead of 4.
 */
export const LIVENESS_TIMEOUT_MS = 8000;
const CONNECT_TIMEOUT_MS = 15_000;
const LIVENESS_CHECK_MS = 500;
/** MEDIA_TWCC=0 leaves transport-wide CC out of the answer (REMB only), to compare its cost. */
const TWCC = process.env.MEDIA_TWCC !== '0';

/** The playout-delay extension's 12-bit minimum and maximum in 10 ms units: both zero. */
const ZERO_PLAYOUT_DELAY = Buffer.alloc(3);

interface ViewerOptions {
  machineId: number;
  playerId: number;
  /** `watch`: a spectator (keyframe-gate.ts: it skips to keyframes instead of asking for them). */
  role?: 'watch';
  ingest: MachineIngest;
  iceServers: IceServer[];
  /** Extra host addresses for ICE (e.g. 127.0.0.1 when the browser runs on the same machine). */
  iceAdditionalHostAddresses?: string[];
  onClose: (viewer: Viewer, reason: ViewerCloseReason) => void;
  onConnected?: (viewer: Viewer) => void;
  /** The browser reported picture loss (PLI): it needs a keyframe to show a picture again. */
  onPictureLoss?: (viewer: Viewer) => void;
  livenessTimeoutMs?: number;
}

/** Video loss a spectator's receiver reports (last second) above which it skips to the next keyframe. */
const WATCHER_BEHIND_LOSS = 0.1;

/** Squeezed GOP packets are kept this long for NACKs (their timestamps differ from the ingest's). */
const JOIN_BURST_KEEP_MS = 2000;

/**
 * The cached GOP spans up to a second of RTP time but reaches the browser in one burst. With its
 * real timestamps the browser would anchor playout on the old keyframe and show the live stream
 * that much later; so the cached frames get timestamps one tick apart ending at the newest one:
 * they are decoded and shown back to back, and live frames follow with no extra delay.
 */
export function squeezeTimestamps(packets: readonly Buffer[]): Buffer[] {
  if (packets.length === 0) return [];
  const frameTs: number[] = [];
  for (const p of packets) {
    const ts = p.readUInt32BE(4);
    if (frameTs[frameTs.length - 1] !== ts) frameTs.push(ts);
  }
  const last = frameTs[frameTs.length - 1]!;
  const remap = new Map(
    frameTs.map((ts, i) => [ts, (last - (frameTs.length - 1 - i) + 0x1_0000_0000) % 0x1_0000_0000]),
  );
  return packets.map((p) => {
    const copy = Buffer.from(p);
    copy.writeUInt32BE(remap.get(p.readUInt32BE(4))!, 4);
    return copy;
  });
}

export class Viewer implements PacketSink {
  readonly id = randomBytes(16).toString('base64url');
  readonly pc: RTCPeerConnection;
  private videoSender: RTCRtpSender | null = null;
  private audioSender: RTCRtpSender | null = null;
  /** The id the browser gave the playout-delay extension, when it offered it. */
  private playoutDelayId: number | null = null;
  private live = false;
  private closed = false;
  private lastRtcpAtMs: number | null = null;
  private connectedAtMs: number | null = null;
  private readonly createdAtMs = Date.now();
  private readonly timer: NodeJS.Timeout;
  /** The join burst as this viewer got it (squeezed timestamps), by sequence number, for NACKs. */
  private joinBurst = new Map<number, Buffer>();
  /** Loss over the last second from the browser's receiver reports on our video (band control). */
  private readonly videoLoss = new ReceiverLoss();
  /** Spectators only: drops to the next keyframe when they fall behind. */
  private readonly gate: KeyframeGate | null;
  packetsSent = 0;
  nacksReceived = 0;
  retransmitted = 0;
  retransmitMisses = 0;
  plisReceived = 0;

  constructor(private readonly opts: ViewerOptions) {
    this.gate = opts.role === 'watch' ? new KeyframeGate() : null;
    this.pc = new RTCPeerConnection({
      iceServers: opts.iceServers,
      iceUseIpv6: false,
      iceLite: process.env.MEDIA_ICE_LITE === '1',
      ...(opts.iceAdditionalHostAddresses?.length
        ? { iceAdditionalHostAddresses: opts.iceAdditionalHostAddresses }
        : {}),
      codecs: {
        video: [
          new RTCRtpCodecParameters({
            mimeType: 'video/VP8',
            clockRate: 90000,
            rtcpFeedback: [useNACK(), usePLI(), useREMB(), ...(TWCC ? [useTWCC()] : [])],
          }),
          // Retransmissions on their own SSRC when the browser offers RTX (Chrome does): they do
          // not disturb its loss and jitter statistics of the main stream.
          new RTCRtpCodecParameters({ mimeType: 'video/rtx', clockRate: 90000 }),
        ],
        audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48000, channels: 2 })],
      },
      headerExtensions: {
        video: [
          new RTCRtpHeaderExtensionParameters({ uri: PLAYOUT_DELAY_URI }),
          // Transport-wide sequence numbers: Chrome's receiver then sends transport-cc feedback,
          // which werift's bandwidth estimator reads (with REMB as the fallback).
          ...(TWCC ? [new RTCRtpHeaderExtensionParameters({ uri: RTP_EXTENSION_URI.transportWideCC })] : []),
        ],
        audio: [],
      },
    });
    this.pc.connectionStateChange.subscribe((state) => {
      if (state === 'connected') this.onConnected();
      if (state === 'failed' || state === 'closed') this.close('dead');
    });
    this.timer = setInterval(() => this.checkLiveness(), LIVENESS_CHECK_MS);
  }

  get machineId(): number {
    return this.opts.machineId;
  }
  get playerId(): number {
    return this.opts.playerId;
  }
  get role(): 'watch' | undefined {
    return this.opts.role;
  }

  /** Applies the browser's offer and returns our answer SDP (ICE candidates included). */
  async answer(offerSdp: string): Promise<string> {
    const video = this.pc.addTransceiver('video', { direction: 'sendonly' });
    const audio = this.pc.addTransceiver('audio', { direction: 'sendonly' });
    this.videoSender = video.sender;
    this.audioSender = audio.sender;
    for (const s of [video.sender, audio.sender]) s.onRtcp.subscribe(() => (this.lastRtcpAtMs = Date.now()));
    disableBuiltInRetransmission(video.sender);
    video.sender.onRtcp.subscribe((packet) => {
      if (!(packet instanceof RtcpRrPacket)) return;
      const ssrc = internals(video.sender).ssrc;
      for (const report of packet.reports) if (report.ssrc === ssrc) this.videoLoss.add(report, Date.now());
      // A spectator whose link loses video is behind: the deltas it misses are useless without
      // their references, so it skips to the next keyframe rather than catching up.
      if (this.gate && (this.videoLoss.fraction() ?? 0) > WATCHER_BEHIND_LOSS) this.gate.skipToKeyframe();
    });
    video.sender.onGenericNack.subscribe((nack) => this.onNack(nack));
    video.sender.onPictureLossIndication.subscribe(() => {
      this.plisReceived++;
      // A spectator's lost picture waits for the next keyframe; only the player's asks the encoder.
      if (this.gate) this.gate.skipToKeyframe();
      else if (this.live) this.opts.onPictureLoss?.(this);
    });
    await this.pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
    this.playoutDelayId = video.headerExtensions.find((e) => e.uri === PLAYOUT_DELAY_URI)?.id ?? null;
    // DTLS server (`a=setup:passive`): as the client werift sleeps a fixed 100 ms after ICE connects
    // before its ClientHello (werift 0.24 transport/dtls.ts), a tenth of a second of every join.
    // As the server it answers the browser's ClientHello as soon as it arrives.
    for (const transport of this.pc.dtlsTransports) transport.role = 'server';
    keepEarlyDtlsRecords(this.pc);
    const answer = await this.pc.createAnswer();
    await this.pc.setLocalDescription(answer);
    return this.pc.localDescription!.sdp;
  }

  private onConnected(): void {
    if (this.live || this.closed) return;
    this.connectedAtMs = Date.now();
    this.lastRtcpAtMs = Date.now();
    // Decodable picture at once: the packets since the last keyframe, then the live stream.
    const burst = squeezeTimestamps(this.opts.ingest.gop.snapshot());
    for (const p of burst) {
      this.joinBurst.set(p.readUInt16BE(2), p);
      this.sendVideo(p);
    }
    setTimeout(() => this.joinBurst.clear(), JOIN_BURST_KEEP_MS).unref();
    this.live = true;
    this.opts.ingest.viewers.add(this);
    this.opts.onConnected?.(this);
  }

  sendVideo(p: Buffer): void {
    if (this.closed || !this.videoSender) return;
    const out = this.gate ? this.gate.pass(p) : p;
    if (!out) return;
    this.packetsSent++;
    this.videoSender.sendRtp(this.withPlayoutDelay(out)).catch(() => {});
  }

  private withPlayoutDelay(p: Buffer): Buffer | RtpPacket {
    if (this.playoutDelayId === null) return p;
    const packet = RtpPacket.deSerialize(p);
    packet.header.extensions.push({ id: this.playoutDelayId, payload: ZERO_PLAYOUT_DELAY });
    return packet;
  }

  /**
   * Sends the packets a NACK names again, from the ingest's retransmission buffer, wrapped as RTX
   * when negotiated (as werift would: same SSRC rewrite, RTX sequence numbers of their own).
   */
  private onNack(nack: GenericNack): void {
    const sender = this.videoSender;
    if (this.closed || !sender?.codec) return;
    this.nacksReceived++;
    const s = internals(sender);
    const now = Date.now();
    // A spectator skipping to a keyframe gets no repairs of what it is skipping.
    if (this.gate?.isSkipping) return;
    for (const seq of nack.lost) {
      const raw = this.joinBurst.get(seq) ?? this.opts.ingest.retransmit.get(this.gate ? this.gate.originalSeq(seq) : seq, now);
      if (!raw) {
        this.retransmitMisses++;
        continue;
      }
      const original = this.withPlayoutDelay(raw);
      let packet = Buffer.isBuffer(original) ? RtpPacket.deSerialize(original) : original;
      packet.header.ssrc = s.ssrc;
      packet.header.payloadType = sender.codec.payloadType;
      packet.header.sequenceNumber = seq;
      if (s.rtxPayloadType !== undefined) {
        packet = wrapRtx(packet, s.rtxPayloadType, s.rtxSequenceNumber, s.rtxSsrc);
        s.rtxSequenceNumber = (s.rtxSequenceNumber + 1) & 0xffff;
      }
      this.retransmitted++;
      s.retransmittedPacketsSent++;
      s.retransmittedBytesSent += packet.payload.length;
      sender.dtlsTransport.sendRtp(packet.payload, packet.header).catch(() => {});
    }
  }

  sendAudio(p: Buffer): void {
    if (this.closed || !this.audioSender || !this.live) return;
    this.audioSender.sendRtp(p).catch(() => {});
  }

  private checkLiveness(): void {
    const now = Date.now();
    if (this.connectedAtMs === null) {
      if (now - this.createdAtMs > CONNECT_TIMEOUT_MS) this.close('dead');
      return;
    }
    const limit = this.opts.livenessTimeoutMs ?? LIVENESS_TIMEOUT_MS;
    if (this.lastRtcpAtMs !== null && now - this.lastRtcpAtMs > limit) this.close('dead');
  }

  stats(): ViewerStats {
    return {
      viewerId: this.id,
      machineId: this.opts.machineId,
      playerId: this.opts.playerId,
      ...(this.opts.role ? { role: this.opts.role } : {}),
      state: this.closed ? 'closed' : this.pc.connectionState,
      connectedAtMs: this.connectedAtMs,
      lastRtcpAgeMs: this.lastRtcpAtMs === null ? null : Date.now() - this.lastRtcpAtMs,
      packetsSent: this.packetsSent,
      nacksReceived: this.nacksReceived,
      retransmitted: this.retransmitted,
      retransmitMisses: this.retransmitMisses,
      plisReceived: this.plisReceived,
      ...this.linkReport(),
    };
  }

  /**
   * What the browser reports about its link: video loss over about the last second, from the
   * receiver reports' cumulative counts (receiver-loss.ts; not werift's `remoteFractionLost`, the
   * latest report's own figure, which reads reordering jitter as loss), and REMB, if any.
   */
  private linkReport(): { lossFraction: number | null; estimateKbps: number | null } {
    if (!this.videoSender) return { lossFraction: null, estimateKbps: null };
    const s = internals(this.videoSender);
    const remb = Number(s.receiverEstimatedMaxBitrate) / 1000;
    return { lossFraction: this.videoLoss.fraction(), estimateKbps: remb > 0 ? remb : null };
  }

  close(reason: ViewerCloseReason): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.opts.ingest.viewers.delete(this);
    this.pc.close().catch(() => {});
    this.opts.onClose(this, reason);
  }
}
