/**
 * Scale path: the same cabinet RTP into a Janus streaming mountpoint instead of the embedded
 * forwarder. This adapter runs Janus (config written to a temp dir at start, HTTP API on
 * 127.0.0.1 only), creates one `rtp` mountpoint per machine with its keyframe buffer (the whole
 * GOP since Janus 1.3.3: a new viewer decodes at once), checks grants itself, and translates the
 * WHEP calls into Janus' watch: Janus 1.1.4+ answers the browser's offer (`kind: 'answer'`, as
 * werift); Debian bookworm's 1.1.2 only offers, so createViewer then answers `kind: 'offer'` and
 * the browser's answer arrives by answerViewer. Teardown: leave/pagehide destroy the Janus session;
 * Janus' `hangup` event (ICE failure, DTLS alert) ends the viewer, and the per-viewer long poll
 * keeps the session alive.
 */
import { type ChildProcess } from 'node:child_process';
import { spawnTied, freePort, stopChild } from '@reel/process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type {
  CreateViewerResponse,
  IceServer,
  IngestInfo,
  MediaStats,
  ViewerCloseReason,
} from '@reel/protocol';
import { verifyGrant } from '@reel/media-control';
import { MediaError } from '../media-error.js';
import { AUDIO_PAYLOAD_TYPE, VIDEO_PAYLOAD_TYPE } from '../rtp.js';
import { writeJanusConfig } from './janus-config.js';
import { chooseJanus, janusLibDir } from './janus-install.js';
import { JanusKeyframeTap } from './janus-keyframes.js';
import { JanusLink } from './janus-link.js';
import { withoutRtx, withoutStreamNames } from './janus-sdp.js';
import type { MediaBackendApi } from '../control-server.js';

const START_TIMEOUT_MS = 15_000;
/**
 * Longest GOP the keyframe buffer holds: the cabinet's encoder makes a keyframe every second; a
 * later one (an encoder restart) still fits, and what does not fit would leave a new viewer with
 * deltas it cannot decode until the next keyframe.
 */
const KEYFRAME_BUFFER_MS = 3000;

interface JanusBackendOptions {
  secret: string;
  iceServers: IceServer[];
  janusBin?: string;
  log?: (msg: string) => void;
  /** A viewer lost the picture (Janus passed its PLI/FIR on; rate limited): ask for a keyframe. */
  onKeyframeRequest?: (machineId: number) => void;
}

interface JanusViewer {
  id: string;
  machineId: number;
  playerId: number;
  role: 'watch' | undefined;
  session: number;
  handle: number;
  closed: boolean;
  connectedAtMs: number | null;
  link: JanusLink;
}

const tx = () => randomBytes(8).toString('hex');
/** What the adapter cannot count: the cabinet's RTP goes straight into Janus (stats()). */
const NOT_COUNTED = { videoPackets: null, audioPackets: null, videoBytes: null, keyframes: null, gopCachePackets: null };

/** Janus 1.3.3 (1303 in `info`) made the keyframe buffer keep the deltas after the keyframe too. */
const GOP_BUFFER_SINCE = 1303;
/** Janus 1.1.4 let the streaming plugin answer a viewer's offer (before, it always offered). */
const VIEWER_OFFERS_SINCE = 1104;

/** The parts of Janus' JSON replies and events this adapter reads. */
interface JanusMessage {
  janus: string;
  data?: { id: number };
  error?: { code: number; reason: string };
  plugindata?: { data?: { error?: string; info?: { media?: { type: string; age_ms?: number }[] } } };
  jsep?: { type: string; sdp: string };
  /** slowlink events: which medium, and the packets lost in the last second. */
  media?: string;
  lost?: number;
}

export class JanusBackend implements MediaBackendApi {
  private proc: ChildProcess | null = null;
  private dir: string | null = null;
  private base = '';
  private adminSession = 0;
  private adminHandle = 0;
  private keepalive: NodeJS.Timeout | null = null;
  private readonly ingests = new Map<number, IngestInfo>();
  private readonly keyframeTaps = new Map<number, JanusKeyframeTap>();
  private readonly viewers = new Map<string, JanusViewer>();
  private readonly closedCounts: Record<string, number> = {};
  private readonly startedAtMs = Date.now();
  /** Whether this Janus sends a new viewer the whole GOP (bufferkf_ms), so it needs no keyframe. */
  private gopBuffer = false;
  /** Whether it answers the browser's offer (else it offers and the browser answers). */
  private viewerOffers = false;

  constructor(private readonly opts: JanusBackendOptions) {}

  async start(): Promise<void> {
    const httpPort = await freePort('tcp');
    this.dir = mkdtempSync(path.join(tmpdir(), 'reel-janus-'));
    const bin = this.opts.janusBin ?? chooseJanus().bin;
    const lib = janusLibDir(bin);
    writeJanusConfig(this.dir, { lib, httpPort, iceServers: this.opts.iceServers });
    this.base = `http://127.0.0.1:${httpPort}/janus`;
    // Tied to the media process, so a kill -9 of it leaves no Janus holding the ports.
    this.proc = spawnTied(
      bin,
      ['-C', path.join(this.dir, 'janus.jcfg'), '-F', this.dir, '--disable-colors'],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    this.proc.stderr!.on('data', (d: Buffer) => this.opts.log?.(`janus: ${String(d).trim()}`));
    const t0 = Date.now();
    for (;;) {
      try {
        const res = await fetch(`${this.base}/info`);
        if (res.ok) {
          const { version = 0 } = (await res.json()) as { version?: number };
          this.gopBuffer = version >= GOP_BUFFER_SINCE;
          this.viewerOffers = version >= VIEWER_OFFERS_SINCE;
          break;
        }
      } catch {
        // not up yet
      }
      if (this.proc.exitCode !== null) throw new Error('janus exited at start');
      if (Date.now() - t0 > START_TIMEOUT_MS) throw new Error('janus did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    this.adminSession = await this.createSession();
    this.adminHandle = await this.attach(this.adminSession);
    this.keepalive = setInterval(
      () => void this.post(`/${this.adminSession}`, { janus: 'keepalive' }).catch(() => {}),
      15_000,
    );
  }

  private async post(pathPart: string, body: Record<string, unknown>): Promise<JanusMessage> {
    const res = await fetch(this.base + pathPart, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ transaction: tx(), ...body }),
      signal: AbortSignal.timeout(10_000),
    });
    const json = (await res.json()) as JanusMessage;
    if (json.janus === 'error') throw new Error(`janus error ${json.error?.code}: ${json.error?.reason}`);
    return json;
  }

  private async createSession(): Promise<number> {
    return (await this.post('', { janus: 'create' })).data!.id;
  }
  private async attach(session: number): Promise<number> {
    return (await this.post(`/${session}`, { janus: 'attach', plugin: 'janus.plugin.streaming' })).data!.id;
  }

  async createIngest(machineId: number): Promise<IngestInfo> {
    const known = this.ingests.get(machineId);
    if (known) return known;
    const [videoPort, audioPort, videoRtcpPort] = [
      await freePort('udp'),
      await freePort('udp'),
      await freePort('udp'),
    ];
    const res = await this.post(`/${this.adminSession}/${this.adminHandle}`, {
      janus: 'message',
      body: {
        request: 'create',
        type: 'rtp',
        id: machineId,
        description: `machine ${machineId}`,
        is_private: true,
        permanent: false,
        audio: true,
        audioport: audioPort,
        audiopt: AUDIO_PAYLOAD_TYPE,
        audiocodec: 'opus',
        audioiface: '127.0.0.1',
        video: true,
        videoport: videoPort,
        videopt: VIDEO_PAYLOAD_TYPE,
        videocodec: 'vp8',
        videoiface: '127.0.0.1',
        // The keyframe buffer: Janus 1.1.2 keeps the last keyframe only; 1.3.3+ ignore this flag
        // and keep the last keyframe and every delta after it for bufferkf_ms (the GOP a new
        // viewer decodes at once, like the forwarder's GopCache).
        videobufferkf: true,
        bufferkf_ms: KEYFRAME_BUFFER_MS,
        // Viewers' PLI/FIR go out on this port to our keyframe tap (janus-keyframes.ts).
        videortcpport: videoRtcpPort,
        // Lets each viewer be told to render at once (PLAYOUT_DELAY_URI in @reel/protocol says why).
        playoutdelay_ext: true,
      },
    });
    const data = res.plugindata?.data;
    if (data?.error) throw new Error(`janus create: ${data.error}`);
    const info: IngestInfo = {
      machineId,
      host: '127.0.0.1',
      videoPort,
      audioPort,
      videoSsrc: randomInt(1, 0x7fff_ffff),
      audioSsrc: randomInt(1, 0x7fff_ffff),
      videoPayloadType: VIDEO_PAYLOAD_TYPE,
      audioPayloadType: AUDIO_PAYLOAD_TYPE,
      backend: 'janus',
    };
    this.ingests.set(machineId, info);
    const tap = new JanusKeyframeTap(videoRtcpPort, () => this.opts.onKeyframeRequest?.(machineId));
    await tap.start();
    this.keyframeTaps.get(machineId)?.close();
    this.keyframeTaps.set(machineId, tap);
    return info;
  }

  async deleteIngest(machineId: number): Promise<boolean> {
    if (!this.ingests.delete(machineId)) return false;
    this.keyframeTaps.get(machineId)?.close();
    this.keyframeTaps.delete(machineId);
    for (const v of [...this.viewers.values()])
      if (v.machineId === machineId) await this.closeViewer(v, 'ingest_gone');
    await this.post(`/${this.adminSession}/${this.adminHandle}`, {
      janus: 'message',
      body: { request: 'destroy', id: machineId },
    }).catch(() => {});
    return true;
  }

  async createViewer(grant: string, machineId: number, offerSdp: string): Promise<CreateViewerResponse> {
    const check = verifyGrant(this.opts.secret, grant, { machineId });
    if (!check.ok) throw new MediaError(check.error === 'expired' ? 401 : 403, check.error);
    if (!this.ingests.has(machineId)) throw new MediaError(404, 'no_ingest');
    const { playerId, role } = check.claims;
    // A spectator's grant never replaces the player's viewer (nor the other way round).
    for (const v of [...this.viewers.values()])
      if (v.machineId === machineId && v.playerId === playerId && v.role === role) await this.closeViewer(v, 'replaced');
    const session = await this.createSession();
    const handle = await this.attach(session);
    const viewer: JanusViewer = {
      id: randomBytes(16).toString('base64url'),
      machineId,
      playerId,
      role,
      session,
      handle,
      closed: false,
      connectedAtMs: null,
      link: new JanusLink(),
    };
    this.viewers.set(viewer.id, viewer);
    if (!this.viewerOffers) {
      // Janus 1.1.2 only offers itself: the browser rolls its offer back and answers (answerViewer).
      await this.post(`/${session}/${handle}`, { janus: 'message', body: { request: 'watch', id: machineId } });
      const offer = await this.nextJsep(viewer, 'offer');
      void this.pollEvents(viewer);
      return { viewerId: viewer.id, kind: 'offer', sdp: withoutStreamNames(offer), backend: 'janus' };
    }
    // WHEP as werift does it: Janus answers the browser's offer, one round trip, and as the
    // answerer it takes the DTLS client role, so it starts the handshake as soon as ICE is up.
    if (this.gopBuffer) this.keyframeTaps.get(machineId)?.expectJoinRequest();
    await this.post(`/${session}/${handle}`, {
      janus: 'message',
      body: { request: 'watch', id: machineId },
      jsep: { type: 'offer', sdp: withoutRtx(offerSdp) },
    });
    await this.renderAtOnce(viewer);
    const answer = await this.nextJsep(viewer, 'answer');
    void this.pollEvents(viewer);
    return { viewerId: viewer.id, kind: 'answer', sdp: withoutStreamNames(answer), backend: 'janus' };
  }

  /** Long-polls the viewer's session until Janus delivers its offer or answer. */
  private async nextJsep(v: JanusViewer, type: 'offer' | 'answer'): Promise<string> {
    const t0 = Date.now();
    while (Date.now() - t0 < 10_000) {
      const res = await fetch(`${this.base}/${v.session}?maxev=5&rid=${Date.now()}`, {
        signal: AbortSignal.timeout(12_000),
      });
      const events = [(await res.json()) as JanusMessage | JanusMessage[]].flat();
      for (const e of events) {
        if (e.jsep?.type === type) return e.jsep.sdp;
        const refused = e.plugindata?.data?.error;
        if (refused) {
          // A watch Janus refused: an SDP it cannot use (or a mountpoint gone meanwhile).
          this.opts.log?.(`janus refused viewer ${v.id} of machine ${v.machineId}: ${refused}`);
          await this.closeViewer(v, 'dead');
          throw new MediaError(400, 'bad_request');
        }
      }
    }
    await this.closeViewer(v, 'dead');
    throw new MediaError(404, 'no_ingest');
  }

  /** Zero playout delay, as the embedded forwarder sends (PLAYOUT_DELAY_URI says why). */
  private async renderAtOnce(v: JanusViewer): Promise<void> {
    await this.post(`/${v.session}/${v.handle}`, {
      janus: 'message',
      body: { request: 'configure', min_delay: 0, max_delay: 0 },
    });
  }

  /** Keeps the session alive and ends the viewer when Janus reports a hangup. */
  private async pollEvents(v: JanusViewer): Promise<void> {
    while (!v.closed) {
      try {
        const res = await fetch(`${this.base}/${v.session}?maxev=5&rid=${Date.now()}`, {
          signal: AbortSignal.timeout(40_000),
        });
        const events = [(await res.json()) as JanusMessage | JanusMessage[]].flat();
        for (const e of events) {
          if (e.janus === 'webrtcup') v.connectedAtMs = Date.now();
          if (e.janus === 'slowlink' && e.media !== 'audio') v.link.slowLink(e.lost);
          if (e.janus === 'hangup' || (e.janus === 'error' && e.error?.code === 458))
            return void this.closeViewer(v, 'dead');
        }
      } catch {
        if (!v.closed) await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  async answerViewer(viewerId: string, answerSdp: string): Promise<void> {
    const v = this.viewers.get(viewerId);
    if (!v) throw new MediaError(404, 'no_viewer');
    if (this.gopBuffer) this.keyframeTaps.get(v.machineId)?.expectJoinRequest();
    await this.post(`/${v.session}/${v.handle}`, {
      janus: 'message',
      body: { request: 'start' },
      jsep: { type: 'answer', sdp: answerSdp },
    });
    await this.renderAtOnce(v);
  }

  private async closeViewer(v: JanusViewer, reason: ViewerCloseReason): Promise<void> {
    if (v.closed) return;
    v.closed = true;
    this.viewers.delete(v.id);
    this.closedCounts[reason] = (this.closedCounts[reason] ?? 0) + 1;
    await this.post(`/${v.session}`, { janus: 'destroy' }).catch(() => {});
  }

  async deleteViewer(viewerId: string, reason: ViewerCloseReason = 'leave'): Promise<boolean> {
    const v = this.viewers.get(viewerId);
    if (!v) return false;
    await this.closeViewer(v, reason);
    return true;
  }

  async stats(): Promise<MediaStats> {
    const ingests = [...this.ingests.values()];
    const ages = await Promise.all(ingests.map((i) => this.videoAgeMs(i.machineId)));
    return {
      backend: 'janus',
      uptimeMs: Date.now() - this.startedAtMs,
      // Counts null, not 0 (a 0 read as "no video" for a machine that played); freshness from Janus.
      machines: ingests.map((i, n) => ({
        machineId: i.machineId,
        viewers: [...this.viewers.values()].filter((v) => v.machineId === i.machineId).length,
        ...NOT_COUNTED,
        lastPacketAgeMs: ages[n] ?? null,
        keyframeRequests: this.keyframeTaps.get(i.machineId)?.requests ?? 0,
      })),
      viewers: [...this.viewers.values()].map((v) => ({
        viewerId: v.id,
        machineId: v.machineId,
        playerId: v.playerId,
        ...(v.role ? { role: v.role } : {}),
        state: v.connectedAtMs ? 'connected' : 'connecting',
        connectedAtMs: v.connectedAtMs,
        lastRtcpAgeMs: null,
        packetsSent: null,
        lossFraction: v.link.lossFraction(v.connectedAtMs !== null),
        estimateKbps: null,
      })),
      closedViewers: { ...this.closedCounts },
    };
  }

  /**
   * Since Janus last received video on the machine's mountpoint (the streaming plugin's `info`);
   * null before the first packet (Janus then reports its whole monotonic clock) or when it cannot say.
   */
  private async videoAgeMs(machineId: number): Promise<number | null> {
    const info = { janus: 'message', body: { request: 'info', id: machineId } };
    const res = await this.post(`/${this.adminSession}/${this.adminHandle}`, info).catch(() => null);
    const age = res?.plugindata?.data?.info?.media?.find((m) => m.type === 'video')?.age_ms;
    return typeof age === 'number' && age <= Date.now() - this.startedAtMs ? age : null;
  }

  async close(): Promise<void> {
    for (const v of [...this.viewers.values()]) await this.closeViewer(v, 'shutdown');
    if (this.keepalive) clearInterval(this.keepalive);
    for (const tap of this.keyframeTaps.values()) tap.close();
    this.keyframeTaps.clear();
    const proc = this.proc;
    this.proc = null;
    if (proc) await stopChild(proc, 'SIGTERM', 2000);
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}
