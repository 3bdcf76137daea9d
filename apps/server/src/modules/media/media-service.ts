/**
 * What the rest of the server uses for live video: grants for players, ingests for machines, and
 * starting a cabinet's stream through the agent hub.
 */
import type { CommandResult, IceServer, IngestInfo, StreamGrant } from '@reel/protocol';
import { signGrant, DEFAULT_GRANT_TTL_MS } from '@reel/media-control';
import type { AgentHub, CommandInput } from '../cabinets/agent-hub.js';
import { MediaClient } from './media-client.js';
import { MediaSupervisor, type MediaSupervisorOptions } from './media-supervisor.js';

/** Whoever reaches the cabinets: the agent hub, or in a cluster the owner's mirror of every server's. */
interface CabinetCommands {
  sendCommand(machineId: number, input: CommandInput): Promise<CommandResult>;
}

interface MediaServiceOptions extends MediaSupervisorOptions {
  /** ICE servers the browser gets with each grant (STUN/TURN from configuration). */
  browserIceServers?: IceServer[];
  grantTtlMs?: number;
  /** Route prefix of mediaPlugin, for the whepUrl in grants. */
  prefix?: string;
}

export class MediaService {
  readonly supervisor: MediaSupervisor;
  readonly client: MediaClient;
  private readonly ingests = new Map<number, IngestInfo>();
  /** The hub the streams were started through: keyframe requests go back the same way. */
  private hub: CabinetCommands | null = null;

  constructor(private readonly opts: MediaServiceOptions = {}) {
    this.supervisor = new MediaSupervisor(opts);
    this.client = new MediaClient(() => this.supervisor.controlUrl, this.supervisor.secret);
    // A restarted media process has no ingests: forget ours so they are created again.
    this.supervisor.on('exit', () => this.ingests.clear());
    // A viewer lost the picture (the media process rate-limits these): the machine's encoder sends
    // a keyframe now rather than at its next interval.
    this.supervisor.on('event', (event) => {
      if (event.event !== 'keyframe_request' || !this.hub || !this.ingests.has(event.data.machineId)) return;
      void this.hub.sendCommand(event.data.machineId, { type: 'keyframe' }).catch(() => {});
    });
  }

  start(): Promise<string> {
    return this.supervisor.start();
  }
  stop(): Promise<void> {
    return this.supervisor.stop();
  }

  /**
   * A short-lived grant for the player who holds the machine's session; with `watch`, a spectator's
   * (its own, shorter life; the media process lets it watch and nothing more).
   */
  issueGrant(playerId: number, machineId: number, watch?: { ttlMs: number }): StreamGrant {
    const { token, claims } = signGrant(this.supervisor.secret, {
      playerId,
      machineId,
      ttlMs: watch?.ttlMs ?? this.opts.grantTtlMs ?? DEFAULT_GRANT_TTL_MS,
      ...(watch ? { role: 'watch' as const } : {}),
    });
    return {
      grant: token,
      expiresAt: new Date(claims.exp).toISOString(),
      whepUrl: `${this.opts.prefix ?? '/api/media'}/whep/${machineId}`,
      iceServers: this.opts.browserIceServers ?? this.opts.iceServers ?? [],
    };
  }

  async ensureIngest(machineId: number): Promise<IngestInfo> {
    const known = this.ingests.get(machineId);
    if (known) return known;
    const info = await this.client.createIngest(machineId);
    this.ingests.set(machineId, info);
    return info;
  }

  /** Creates the ingest and tells the cabinet to stream to it. */
  async startMachineStream(
    hub: CabinetCommands,
    machineId: number,
    opts: { bandId?: string; timestampStrip?: boolean } = {},
  ): Promise<IngestInfo> {
    this.hub = hub;
    const ingest = await this.ensureIngest(machineId);
    const result = await hub.sendCommand(machineId, {
      type: 'stream_start',
      target: {
        host: ingest.host,
        videoPort: ingest.videoPort,
        audioPort: ingest.audioPort,
        videoSsrc: ingest.videoSsrc,
        audioSsrc: ingest.audioSsrc,
        videoPayloadType: ingest.videoPayloadType,
        audioPayloadType: ingest.audioPayloadType,
        bandId: opts.bandId ?? 'high',
        ...(opts.timestampStrip ? { timestampStrip: true } : {}),
      },
    });
    if (result.outcome !== 'ok') throw new Error(`stream_start refused: ${result.reason ?? result.outcome}`);
    return ingest;
  }

  /** Keeps every connected cabinet streaming (also after agent or media restarts). */
  streamAllConnected(
    hub: AgentHub,
    opts: {
      bandId?: string;
      timestampStrip?: boolean;
      onError?: (machineId: number, err: unknown) => void;
    } = {},
  ): () => void {
    const start = (machineId: number) =>
      void this.startMachineStream(hub, machineId, opts).catch((err) => opts.onError?.(machineId, err));
    const onConnected = (m: { machineId: number }) => start(m.machineId);
    hub.on('connected', onConnected);
    const onReady = () => hub.list().forEach((m) => start(m.machineId));
    this.supervisor.on('ready', onReady);
    hub.list().forEach((m) => start(m.machineId));
    return () => {
      hub.off('connected', onConnected);
      this.supervisor.off('ready', onReady);
    };
  }
}
