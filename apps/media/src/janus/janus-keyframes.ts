/**
 * Janus' keyframe requests, turned into ours. A Janus `rtp` mountpoint with `videortcpport` sends
 * the viewers' picture-loss reports (PLI, FIR) on to the RTP source, at the address the last RTCP
 * packet on that port came from. The cabinet's ffmpeg cannot act on RTCP, so this tap stands in
 * for the source: it sends Janus an empty receiver report every couple of seconds (so Janus knows
 * where to send), and each PLI/FIR it receives becomes a keyframe request through the same
 * KeyframeRequestLimiter as werift's (the cabinet then restarts its encoder; see keyframe-requests.ts).
 * Janus also sends one PLI of its own whenever a viewer's connection comes up; a Janus with the GOP
 * buffer (1.3.3+, `bufferkf_ms`) has already sent that viewer a decodable picture, so the adapter
 * announces each join (`expectJoinRequest`) and the tap lets that one PLI pass unanswered instead of
 * restarting the encoder under every viewer of the machine.
 */
import dgram from 'node:dgram';
import { randomInt } from 'node:crypto';
import { KeyframeRequestLimiter } from '../keyframe-requests.js';

const LATCH_EVERY_MS = 2000;
/** From the viewer's answer to its connection up (ICE, DTLS) and Janus' PLI, with room for a slow link. */
const JOIN_REQUEST_WINDOW_MS = 5000;
const RTCP_PSFB = 206;
const FMT_PLI = 1;
const FMT_FIR = 4;

/** Whether a (compound) RTCP packet carries a PLI or FIR. */
export function isKeyframeRequest(rtcp: Buffer): boolean {
  let offset = 0;
  while (offset + 4 <= rtcp.length) {
    const first = rtcp[offset]!;
    if (first >> 6 !== 2) return false;
    const fmt = first & 0x1f;
    const pt = rtcp[offset + 1]!;
    if (pt === RTCP_PSFB && (fmt === FMT_PLI || fmt === FMT_FIR)) return true;
    offset += (rtcp.readUInt16BE(offset + 2) + 1) * 4;
  }
  return false;
}

/**
 * Which keyframe requests are Janus' own for a join: each announced join absorbs the first request
 * within its window. A viewer's own PLI absorbed by mistake is repeated by its browser.
 */
export class JoinRequestFilter {
  private readonly pending: number[] = [];

  expect(nowMs: number): void {
    this.pending.push(nowMs + JOIN_REQUEST_WINDOW_MS);
  }

  /** True when this request is a join's own (and is then used up). */
  absorbs(nowMs: number): boolean {
    while (this.pending.length && this.pending[0]! < nowMs) this.pending.shift();
    return this.pending.shift() !== undefined;
  }
}

export class JanusKeyframeTap {
  private readonly socket = dgram.createSocket('udp4');
  private readonly limiter = new KeyframeRequestLimiter();
  private readonly joins = new JoinRequestFilter();
  private timer: NodeJS.Timeout | null = null;
  /** An empty receiver report (RC = 0) from a made-up SSRC: just enough for Janus to latch on. */
  private readonly report = Buffer.from([0x80, 201, 0x00, 0x01, 0, 0, 0, 0]);

  constructor(
    private readonly janusRtcpPort: number,
    private readonly onRequest: () => void,
  ) {
    this.report.writeUInt32BE(randomInt(1, 0x7fff_ffff), 4);
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.socket.bind(0, '127.0.0.1', resolve));
    this.socket.on('message', (packet) => {
      if (!isKeyframeRequest(packet) || this.joins.absorbs(Date.now())) return;
      // No view of the RTP here (it goes straight into Janus): the rate limit alone applies.
      if (this.limiter.onPictureLoss(Date.now(), null) === 'request') this.onRequest();
    });
    const latch = () => this.socket.send(this.report, this.janusRtcpPort, '127.0.0.1', () => {});
    latch();
    this.timer = setInterval(latch, LATCH_EVERY_MS);
  }

  /** A viewer is joining through a Janus whose GOP buffer gives it a picture: its PLI asks for nothing. */
  expectJoinRequest(): void {
    this.joins.expect(Date.now());
  }

  get requests(): number {
    return this.limiter.requests;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.socket.close();
  }
}
