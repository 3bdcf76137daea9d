/**
 * The embedded forwarder: ingests by machine, viewers by id, grant checks. Transport-agnostic;
 * control-server.ts puts HTTP in front of it.
 */
import { EventEmitter } from 'node:events';
import type {
  CreateViewerResponse,
  IceServer,
  IngestInfo,
  MediaStats,
  ViewerCloseReason,
} from '@reel/protocol';
import { verifyGrant } from '@reel/media-control';
import { MachineIngest } from './ingest.js';
import { MediaError } from '../media-error.js';
import { Viewer } from './viewer.js';

interface ForwarderOptions {
  secret: string;
  iceServers: IceServer[];
  iceAdditionalHostAddresses?: string[];
  livenessTimeoutMs?: number;
}

export class Forwarder extends EventEmitter<{
  viewer_closed: [{ viewerId: string; machineId: number; playerId: number; reason: ViewerCloseReason }];
  viewer_connected: [{ viewerId: string; machineId: number; playerId: number }];
  keyframe_request: [{ machineId: number }];
}> {
  private readonly ingests = new Map<number, MachineIngest>();
  private readonly viewers = new Map<string, Viewer>();
  private readonly closedCounts: Record<string, number> = {};
  private readonly startedAtMs = Date.now();

  constructor(private readonly opts: ForwarderOptions) {
    super();
  }

  /**
   * The first peer connection of a process pays for certificate generation and JIT warm-up
   * (~300 ms); do it at start-up instead of on the first player's join.
   */
  async warmUp(): Promise<void> {
    const { RTCPeerConnection } = await import('werift');
    const a = new RTCPeerConnection({ iceUseIpv6: false });
    const b = new RTCPeerConnection({ iceUseIpv6: false });
    try {
      a.addTransceiver('video', { direction: 'recvonly' });
      await a.setLocalDescription(await a.createOffer());
      b.addTransceiver('video', { direction: 'sendonly' });
      await b.setRemoteDescription(a.localDescription!);
      await b.setLocalDescription(await b.createAnswer());
    } finally {
      await Promise.allSettled([a.close(), b.close()]);
    }
  }

  async createIngest(machineId: number): Promise<IngestInfo> {
    let ingest = this.ingests.get(machineId);
    if (!ingest) {
      ingest = new MachineIngest(machineId);
      await ingest.listen();
      this.ingests.set(machineId, ingest);
    }
    return ingest.info('werift');
  }

  deleteIngest(machineId: number): boolean {
    const ingest = this.ingests.get(machineId);
    if (!ingest) return false;
    for (const v of [...this.viewers.values()]) if (v.machineId === machineId) v.close('ingest_gone');
    ingest.close();
    this.ingests.delete(machineId);
    return true;
  }

  async createViewer(grant: string, machineId: number, offerSdp: string): Promise<CreateViewerResponse> {
    const check = verifyGrant(this.opts.secret, grant, { machineId });
    if (!check.ok) throw new MediaError(check.error === 'expired' ? 401 : 403, check.error);
    const ingest = this.ingests.get(machineId);
    if (!ingest) throw new MediaError(404, 'no_ingest');
    if (typeof offerSdp !== 'string' || !offerSdp.startsWith('v=0')) throw new MediaError(400, 'bad_request');
    const { playerId, role } = check.claims;
    // One stream per player, role and machine: a reload or second tab replaces the older viewer;
    // a spectator's grant never replaces the player's (nor the other way round).
    for (const v of [...this.viewers.values()])
      if (v.machineId === machineId && v.playerId === playerId && v.role === role) v.close('replaced');
    const viewer = new Viewer({
      machineId,
      playerId,
      ...(role ? { role } : {}),
      ingest,
      iceServers: this.opts.iceServers,
      ...(this.opts.iceAdditionalHostAddresses
        ? { iceAdditionalHostAddresses: this.opts.iceAdditionalHostAddresses }
        : {}),
      ...(this.opts.livenessTimeoutMs ? { livenessTimeoutMs: this.opts.livenessTimeoutMs } : {}),
      onConnected: (v) => this.emit('viewer_connected', { viewerId: v.id, machineId, playerId }),
      onPictureLoss: () => {
        if (ingest.onPictureLoss() === 'request') this.emit('keyframe_request', { machineId });
      },
      onClose: (v, reason) => {
        this.viewers.delete(v.id);
        this.closedCounts[reason] = (this.closedCounts[reason] ?? 0) + 1;
        this.emit('viewer_closed', { viewerId: v.id, machineId, playerId, reason });
      },
    });
    this.viewers.set(viewer.id, viewer);
    try {
      const sdp = await viewer.answer(offerSdp);
      return { viewerId: viewer.id, kind: 'answer', sdp, backend: 'werift' };
    } catch {
      viewer.close('dead');
      throw new MediaError(400, 'bad_request');
    }
  }

  deleteViewer(viewerId: string, reason: ViewerCloseReason = 'leave'): boolean {
    const v = this.viewers.get(viewerId);
    if (!v) return false;
    v.close(reason);
    return true;
  }

  stats(): MediaStats {
    return {
      backend: 'werift',
      uptimeMs: Date.now() - this.startedAtMs,
      machines: [...this.ingests.values()].map((i) => i.stats()),
      viewers: [...this.viewers.values()].map((v) => v.stats()),
      closedViewers: { ...this.closedCounts },
    };
  }

  close(): void {
    for (const v of [...this.viewers.values()]) v.close('shutdown');
    for (const id of [...this.ingests.keys()]) this.deleteIngest(id);
  }
}
