/**
 * Receives one machine's live video and sound over WebRTC. Framework-free: a React hook can wrap
 * it later. Flow: create a recv-only RTCPeerConnection with the ICE servers from the grant, send
 * the offer WHEP-style, apply the answer (or answer the server's offer for the Janus backend),
 * and keep it alive: if the connection fails or stays disconnected it is rebuilt with backoff,
 * fetching a fresh grant when a provider is given. On `pagehide` the viewer is released at once
 * with a beacon, so the media server does not wait for a timeout.
 */
import { Backoff } from '@reel/process/backoff';
import { Emitter } from '../emitter.js';
import { readVideoStats, type VideoStats } from './stats.js';
import { whepSignaller, SignalError, type Signaller } from './whep.js';
import { DISCONNECTED_GRACE_MS, VIDEO_RECONNECT_BACKOFF } from './reconnect-policy.js';

const ICE_GATHER_WAIT_MS = 400;

/**
 * The ICE servers of the last grant this page saw, for the next offer made before its grant
 * arrives; an offer made with other servers than its grant names is made again.
 */
let lastIceServers: RTCIceServer[] = [];

function sameIceServers(a: RTCIceServer[], b: RTCIceServer[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Makes the peer connection's offer. The promise is awaited after the grant arrives, or never when
 * the connection is closed or replaced meanwhile (the offer then fails on a closed pc): marked as
 * handled here so that case is not an unhandled rejection; awaiting it still throws.
 */
function offerFrom(pc: RTCPeerConnection): Promise<void> {
  const offered = pc.createOffer().then((offer) => pc.setLocalDescription(offer));
  offered.catch(() => undefined);
  return offered;
}

export interface VideoGrant {
  grant: string;
  expiresAt: string;
  whepUrl: string;
  iceServers: RTCIceServer[];
}

export const VideoStatus = {
  Idle: 'idle',
  Connecting: 'connecting',
  Connected: 'connected',
  Reconnecting: 'reconnecting',
  Failed: 'failed',
  Closed: 'closed',
} as const;
export type VideoStatus = (typeof VideoStatus)[keyof typeof VideoStatus];

interface VideoConnectionEvents {
  status: [VideoStatus];
  track: [MediaStreamTrack, MediaStream];
  /** First decoded frame after (re)connecting, with ms since the offer was sent. */
  firstFrame: [number];
  error: [Error];
}

interface VideoConnectionOptions {
  /** A grant, or a function returning a fresh one (used again on every reconnect). */
  grant: VideoGrant | (() => Promise<VideoGrant>);
  /** Optional element to play into (muted autoplay is the caller's choice). */
  video?: HTMLVideoElement | null;
  /** Replace WHEP-over-fetch, e.g. to signal over the game WebSocket. */
  signaller?: (grant: VideoGrant) => Signaller;
  maxReconnectAttempts?: number;
  fetchImpl?: typeof fetch;
  /** Listen for pagehide and release the viewer with a beacon (default true). */
  releaseOnPageHide?: boolean;
}

export class VideoConnection extends Emitter<VideoConnectionEvents> {
  status: VideoStatus = VideoStatus.Idle;
  pc: RTCPeerConnection | null = null;
  readonly stream: MediaStream = new MediaStream();
  private signaller: Signaller | null = null;
  private resourceUrl: string | null = null;
  private readonly backoff = new Backoff(VIDEO_RECONNECT_BACKOFF);
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private graceTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly onPageHide = () => this.release(true);
  offerStartedAtMs = 0;

  constructor(private readonly opts: VideoConnectionOptions) {
    super();
    if (opts.releaseOnPageHide !== false && typeof window !== 'undefined')
      window.addEventListener('pagehide', this.onPageHide);
    if (opts.video) opts.video.srcObject = this.stream;
  }

  async connect(): Promise<void> {
    if (this.status === VideoStatus.Closed) throw new Error('closed');
    this.setStatus(this.backoff.attempts > 0 ? VideoStatus.Reconnecting : VideoStatus.Connecting);
    // The offer does not need the grant, only its ICE servers, which a deployment names the same
    // in every grant: build it while the grant is on its way (the game channel's join), so it
    // leaves the moment the grant arrives instead of after a peer connection and an offer more.
    const granted =
      typeof this.opts.grant === 'function' ? this.opts.grant() : Promise.resolve(this.opts.grant);
    let pc = this.createPeer(lastIceServers);
    try {
      let offered = offerFrom(pc);
      const grant = await granted;
      // Closed or rebuilt while the grant was on its way: that pc is already closed.
      if (pc !== this.pc) return;
      if (!sameIceServers(grant.iceServers, lastIceServers)) {
        lastIceServers = grant.iceServers;
        await offered.catch(() => undefined);
        pc.close();
        pc = this.createPeer(grant.iceServers);
        offered = offerFrom(pc);
      }
      await offered;
      if (pc !== this.pc) return;
      this.signaller = this.opts.signaller
        ? this.opts.signaller(grant)
        : whepSignaller(grant.whepUrl, () => grant.grant, this.opts.fetchImpl);
      // The media server learns our address from our connectivity checks (peer-reflexive), so
      // host candidates are not worth waiting for; STUN/TURN candidates are, briefly.
      if (grant.iceServers.length > 0) await waitForIceGathering(pc, ICE_GATHER_WAIT_MS);
      this.offerStartedAtMs = performance.now();
      const result = await this.signaller.offer(pc.localDescription!.sdp);
      this.resourceUrl = result.resourceUrl;
      if (result.kind === 'answer') {
        await pc.setRemoteDescription({ type: 'answer', sdp: result.sdp });
      } else {
        // The server made its own offer (Janus): drop ours, answer theirs.
        await pc.setLocalDescription({ type: 'rollback' });
        await pc.setRemoteDescription({ type: 'offer', sdp: result.sdp });
        await pc.setLocalDescription(await pc.createAnswer());
        // As for an offer: Janus learns our host address from our checks, which began when its
        // offer (with its candidates) was applied; only STUN/TURN candidates are worth a wait.
        if (grant.iceServers.length > 0) await waitForIceGathering(pc, ICE_GATHER_WAIT_MS);
        if (!this.resourceUrl) throw new SignalError(0, 'no_resource');
        await this.signaller.answer(this.resourceUrl, pc.localDescription!.sdp);
      }
    } catch (err) {
      if (pc !== this.pc) return;
      this.emit('error', err instanceof Error ? err : new Error(String(err)));
      // Refused grants do not get better by retrying with the same grant.
      const fatal =
        err instanceof SignalError &&
        (err.status === 401 || err.status === 403) &&
        typeof this.opts.grant !== 'function';
      this.scheduleReconnect(fatal);
    }
  }

  /** A recv-only peer connection for video and sound, made the current one. */
  private createPeer(iceServers: RTCIceServer[]): RTCPeerConnection {
    const pc = new RTCPeerConnection({ iceServers, bundlePolicy: 'max-bundle' });
    this.pc = pc;
    pc.addTransceiver('video', { direction: 'recvonly' });
    pc.addTransceiver('audio', { direction: 'recvonly' });
    pc.ontrack = (ev) => {
      for (const old of this.stream.getTracks().filter((t) => t.kind === ev.track.kind))
        this.stream.removeTrack(old);
      this.stream.addTrack(ev.track);
      this.emit('track', ev.track, this.stream);
      if (ev.track.kind === 'video') this.watchFirstFrame(pc);
    };
    pc.onconnectionstatechange = () => this.onConnectionState(pc);
    return pc;
  }

  /**
   * Rebuilds the connection now instead of waiting for ICE to give up (seconds): the caller knows
   * the media side is gone, e.g. the game rejoined after a server change while the picture stood still.
   */
  reconnectNow(): void {
    if (this.status === VideoStatus.Closed || this.status === VideoStatus.Connecting) return;
    this.release(false);
    this.backoff.reset();
    void this.connect();
  }

  /** Stops watching: tells the server (DELETE) and closes the peer connection. */
  close(): void {
    this.release(false);
    this.setStatus(VideoStatus.Closed);
    if (typeof window !== 'undefined') window.removeEventListener('pagehide', this.onPageHide);
  }

  getStats(): Promise<VideoStats | null> {
    return this.pc ? readVideoStats(this.pc) : Promise.resolve(null);
  }

  private release(pageHide: boolean): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.retryTimer = this.graceTimer = null;
    if (this.resourceUrl && this.signaller) {
      if (pageHide) this.signaller.beacon(this.resourceUrl);
      else void this.signaller.leave(this.resourceUrl);
    }
    this.resourceUrl = null;
    this.pc?.close();
    this.pc = null;
  }

  private onConnectionState(pc: RTCPeerConnection): void {
    if (pc !== this.pc) return;
    const s = pc.connectionState;
    if (s === 'connected') {
      this.backoff.reset();
      if (this.graceTimer) clearTimeout(this.graceTimer);
      this.graceTimer = null;
      this.setStatus(VideoStatus.Connected);
    } else if (s === 'failed') {
      this.scheduleReconnect(false);
    } else if (s === 'disconnected' && !this.graceTimer) {
      this.setStatus(VideoStatus.Reconnecting);
      this.graceTimer = setTimeout(() => {
        this.graceTimer = null;
        if (pc === this.pc && pc.connectionState !== 'connected') this.scheduleReconnect(false);
      }, DISCONNECTED_GRACE_MS);
    }
  }

  private scheduleReconnect(fatal: boolean): void {
    if (this.status === VideoStatus.Closed) return;
    this.release(false);
    const max = this.opts.maxReconnectAttempts ?? Infinity;
    if (fatal || this.backoff.attempts >= max) {
      this.setStatus(VideoStatus.Failed);
      return;
    }
    this.setStatus(VideoStatus.Reconnecting);
    const delay = this.backoff.next();
    this.retryTimer = setTimeout(() => void this.connect(), delay);
  }

  private watchFirstFrame(pc: RTCPeerConnection): void {
    const started = this.offerStartedAtMs;
    const poll = async () => {
      if (pc !== this.pc) return;
      const stats = await readVideoStats(pc).catch(() => null);
      if (stats && stats.framesDecoded > 0) return this.emit('firstFrame', performance.now() - started);
      setTimeout(() => void poll(), 20);
    };
    void poll();
  }

  private setStatus(s: VideoStatus): void {
    if (this.status === s) return;
    this.status = s;
    this.emit('status', s);
  }
}

/** Waits for host candidates (fast on loopback), bounded so a slow STUN server cannot stall joins. */
function waitForIceGathering(pc: RTCPeerConnection, timeoutMs: number): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      pc.removeEventListener('icegatheringstatechange', check);
      clearTimeout(timer);
      resolve();
    };
    const check = () => pc.iceGatheringState === 'complete' && done();
    const timer = setTimeout(done, timeoutMs);
    pc.addEventListener('icegatheringstatechange', check);
  });
}
