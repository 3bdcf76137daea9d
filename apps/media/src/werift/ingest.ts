/**
 * One machine's incoming RTP: a loopback UDP socket per kind, continuity rewriting, the video's lag
 * (ingest-lag.ts), the GOP cache, and fan-out to the viewers that are connected.
 */
import dgram from 'node:dgram';
import { randomInt } from 'node:crypto';
import type { IngestInfo, MachineMediaStats } from '@reel/protocol';
import { GopCache } from './gop-cache.js';
import { LagMeter } from './ingest-lag.js';
import { KeyframeRequestLimiter, type KeyframeDecision } from '../keyframe-requests.js';
import { RetransmitBuffer } from './retransmit-buffer.js';
import { AUDIO_PAYLOAD_TYPE, RtpContinuity, VIDEO_PAYLOAD_TYPE, isVp8KeyframeStart, rtpTimestamp } from '../rtp.js';

export interface PacketSink {
  sendVideo(p: Buffer): void;
  sendAudio(p: Buffer): void;
}

export class MachineIngest {
  readonly gop = new GopCache();
  readonly viewers = new Set<PacketSink>();
  /** The last second of video for NACKs, shared by every viewer of this machine. */
  readonly retransmit = new RetransmitBuffer();
  private readonly keyframeLimiter = new KeyframeRequestLimiter();
  private lastKeyframeAtMs: number | null = null;
  private readonly video = dgram.createSocket('udp4');
  private readonly audio = dgram.createSocket('udp4');
  private readonly videoContinuity = new RtpContinuity(90_000);
  private readonly audioContinuity = new RtpContinuity(48_000);
  private readonly videoLag = new LagMeter(90_000);
  readonly videoSsrc = randomInt(1, 0x7fff_ffff);
  readonly audioSsrc = randomInt(1, 0x7fff_ffff);
  videoPackets = 0;
  audioPackets = 0;
  videoBytes = 0;
  lastPacketAtMs: number | null = null;

  constructor(
    readonly machineId: number,
    private readonly host = '127.0.0.1',
  ) {}

  async listen(): Promise<void> {
    // Big receive buffers: a keyframe arrives as a burst of ~100 packets within a millisecond.
    const bind = (s: dgram.Socket) =>
      new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.bind(0, this.host, () => {
          s.off('error', reject);
          try {
            s.setRecvBufferSize(4 * 1024 * 1024);
          } catch {
            // the kernel may cap it; the default still works at these rates
          }
          resolve();
        });
      });
    await Promise.all([bind(this.video), bind(this.audio)]);
    this.video.on('message', (p) => this.onVideo(p));
    this.audio.on('message', (p) => this.onAudio(p));
  }

  info(backend: IngestInfo['backend'] = 'werift'): IngestInfo {
    return {
      machineId: this.machineId,
      host: this.host,
      videoPort: this.video.address().port,
      audioPort: this.audio.address().port,
      videoSsrc: this.videoSsrc,
      audioSsrc: this.audioSsrc,
      videoPayloadType: VIDEO_PAYLOAD_TYPE,
      audioPayloadType: AUDIO_PAYLOAD_TYPE,
      backend,
    };
  }

  private onVideo(p: Buffer): void {
    if (p.length < 12 || (p[0]! & 0xc0) !== 0x80) return;
    const now = Date.now();
    if (this.videoContinuity.apply(p, now)) this.videoLag.restart();
    this.videoLag.measure(rtpTimestamp(p), now);
    this.videoPackets++;
    this.videoBytes += p.length;
    this.lastPacketAtMs = now;
    if (isVp8KeyframeStart(p)) this.lastKeyframeAtMs = now;
    this.gop.push(p);
    this.retransmit.push(p, now);
    for (const v of this.viewers) v.sendVideo(p);
  }

  private onAudio(p: Buffer): void {
    if (p.length < 12 || (p[0]! & 0xc0) !== 0x80) return;
    this.audioContinuity.apply(p, Date.now());
    this.audioPackets++;
    for (const v of this.viewers) v.sendAudio(p);
  }

  /** A viewer lost the picture: whether to ask the encoder for a keyframe now (rate limited). */
  onPictureLoss(nowMs = Date.now()): KeyframeDecision {
    return this.keyframeLimiter.onPictureLoss(nowMs, this.lastKeyframeAtMs);
  }

  stats(): MachineMediaStats {
    return {
      machineId: this.machineId,
      viewers: this.viewers.size,
      videoPackets: this.videoPackets,
      audioPackets: this.audioPackets,
      videoBytes: this.videoBytes,
      keyframes: this.gop.keyframes,
      gopCachePackets: this.gop.size,
      lastPacketAgeMs: this.lastPacketAtMs === null ? null : Date.now() - this.lastPacketAtMs,
      keyframeRequests: this.keyframeLimiter.requests,
      keyframeRequestsSuppressed: this.keyframeLimiter.suppressed,
      videoLagMs: this.videoLag.lagMs === null ? null : Math.round(this.videoLag.lagMs),
    };
  }

  close(): void {
    this.video.close();
    this.audio.close();
    this.viewers.clear();
  }
}
