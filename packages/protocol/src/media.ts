/**
 * Server ↔ media control API (HTTP on 127.0.0.1, JSON) and the browser-facing grant.
 *
 * The media process (apps/media) forwards each machine's RTP to authorised WebRTC viewers. The API
 * server creates an ingest per machine (the media part answers with the loopback RTP ports the
 * cabinet must send to), signs a short-lived grant for the player who holds the machine's session,
 * and relays the browser's WHEP-style offer. Every control call carries `x-media-secret`.
 */
import { Type, type Static } from 'typebox';

export const MEDIA_CONTROL_VERSION = 1;
export const MEDIA_SECRET_HEADER = 'x-media-secret';

/**
 * Every video stream to a browser carries this RTP header extension with min = max = 0, so Chrome
 * renders each frame as soon as it is decoded. Without it Chrome holds frames for a playout delay
 * derived from jitter and frame-size estimates; spinning reels make frames several times larger
 * than the idle picture, and that delay grew by 100–200 ms over a few spins, so the player saw
 * their press late. (Cloud gaming uses the same mode.)
 */
export const PLAYOUT_DELAY_URI = 'http://www.webrtc.org/experiments/rtp-hdrext/playout-delay';

export const MediaBackend = { Werift: 'werift', Janus: 'janus' } as const;
export type MediaBackend = (typeof MediaBackend)[keyof typeof MediaBackend];

export const IceServer = Type.Object({
  urls: Type.Union([Type.String(), Type.Array(Type.String())]),
  username: Type.Optional(Type.String()),
  credential: Type.Optional(Type.String()),
});
export type IceServer = Static<typeof IceServer>;

/** What a grant token says once verified. `exp` is epoch ms. */
export const GrantClaims = Type.Object({
  v: Type.Literal(1),
  playerId: Type.Integer(),
  machineId: Type.Integer(),
  exp: Type.Number(),
  jti: Type.String(),
  /**
   * `watch`: a spectator's grant (modules/spectators). The media process lets it receive the stream
   * and nothing else: it never replaces the player's viewer and its picture-loss reports never make
   * the encoder restart. Absent: the player's (or staff's) own grant.
   */
  role: Type.Optional(Type.Literal('watch')),
});
export type GrantClaims = Static<typeof GrantClaims>;

export const CreateIngestRequest = Type.Object({ machineId: Type.Integer() });
export type CreateIngestRequest = Static<typeof CreateIngestRequest>;

export const IngestInfo = Type.Object({
  machineId: Type.Integer(),
  host: Type.String(),
  videoPort: Type.Integer(),
  audioPort: Type.Integer(),
  videoSsrc: Type.Integer(),
  audioSsrc: Type.Integer(),
  videoPayloadType: Type.Integer(),
  audioPayloadType: Type.Integer(),
  backend: Type.Union([Type.Literal('werift'), Type.Literal('janus')]),
});
export type IngestInfo = Static<typeof IngestInfo>;

/** Create a viewer: the browser's SDP offer plus the grant; the answer comes back. */
export const CreateViewerRequest = Type.Object({
  grant: Type.String(),
  machineId: Type.Integer(),
  offerSdp: Type.String({ maxLength: 20000 }),
});
export type CreateViewerRequest = Static<typeof CreateViewerRequest>;

/**
 * Werift answers the offer (`kind: 'answer'`). Janus' streaming plugin always makes its own offer,
 * so the Janus adapter answers `kind: 'offer'`: the browser rolls back its offer, applies the
 * server's, and PATCHes its answer to the viewer's resource. Same code path otherwise.
 */
export const CreateViewerResponse = Type.Object({
  viewerId: Type.String(),
  kind: Type.Union([Type.Literal('answer'), Type.Literal('offer')]),
  sdp: Type.String(),
  backend: Type.Union([Type.Literal('werift'), Type.Literal('janus')]),
});
export type CreateViewerResponse = Static<typeof CreateViewerResponse>;

export const ViewerAnswerRequest = Type.Object({ answerSdp: Type.String({ maxLength: 20000 }) });
export type ViewerAnswerRequest = Static<typeof ViewerAnswerRequest>;

export const ViewerCloseReason = {
  Leave: 'leave',
  PageHide: 'pagehide',
  Dead: 'dead',
  IngestGone: 'ingest_gone',
  Replaced: 'replaced',
  Shutdown: 'shutdown',
} as const;
export type ViewerCloseReason = (typeof ViewerCloseReason)[keyof typeof ViewerCloseReason];

/** A count the backend keeps; null where it cannot (Janus: the cabinet's RTP goes straight into it, unseen by the adapter). */
const Counted = Type.Union([Type.Integer(), Type.Null()]);

export const MachineMediaStats = Type.Object({
  machineId: Type.Integer(),
  viewers: Type.Integer(),
  videoPackets: Counted,
  audioPackets: Counted,
  videoBytes: Counted,
  keyframes: Counted,
  gopCachePackets: Counted,
  /** Since the last video packet reached the backend (Janus: its mountpoint's `age_ms`); null before the first. */
  lastPacketAgeMs: Type.Union([Type.Number(), Type.Null()]),
  /** werift only: keyframe requests sent to the encoder, and picture-loss reports that did not need one. */
  keyframeRequests: Type.Optional(Type.Integer()),
  keyframeRequestsSuppressed: Type.Optional(Type.Integer()),
  /**
   * werift only: how late the last video packet reached the forwarder (ms above the smallest delay
   * of the last seconds; apps/media/src/werift/ingest-lag.ts).
   */
  videoLagMs: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
});
export type MachineMediaStats = Static<typeof MachineMediaStats>;

export const ViewerStats = Type.Object({
  viewerId: Type.String(),
  machineId: Type.Integer(),
  playerId: Type.Integer(),
  /** `watch`: a spectator's viewer (its link never steps the machine's band). */
  role: Type.Optional(Type.Literal('watch')),
  state: Type.String(),
  connectedAtMs: Type.Union([Type.Number(), Type.Null()]),
  lastRtcpAgeMs: Type.Union([Type.Number(), Type.Null()]),
  packetsSent: Counted,
  /** werift only: NACK feedback received, packets sent again, NACKed packets no longer held, PLIs. */
  nacksReceived: Type.Optional(Type.Integer()),
  retransmitted: Type.Optional(Type.Integer()),
  retransmitMisses: Type.Optional(Type.Integer()),
  plisReceived: Type.Optional(Type.Integer()),
  /**
   * Fraction of video lost (0..1): werift from the browser's last receiver report, Janus from its
   * slowlink events (apps/media/src/janus/janus-link.ts); the browser's REMB estimate (werift only).
   */
  lossFraction: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  estimateKbps: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
});
export type ViewerStats = Static<typeof ViewerStats>;

export const MediaStats = Type.Object({
  backend: Type.String(),
  uptimeMs: Type.Number(),
  machines: Type.Array(MachineMediaStats),
  viewers: Type.Array(ViewerStats),
  closedViewers: Type.Record(Type.String(), Type.Integer()),
});
export type MediaStats = Static<typeof MediaStats>;

/** Events the media process prints on stdout as JSON lines (one per line) for its supervisor. */
export type MediaProcessEvent =
  | { event: 'ready'; data: { controlPort: number; backend: MediaBackend } }
  | {
      event: 'viewer_closed';
      data: { viewerId: string; machineId: number; playerId: number; reason: ViewerCloseReason };
    }
  | { event: 'viewer_connected'; data: { viewerId: string; machineId: number; playerId: number } }
  /** A viewer lost the picture (PLI): ask the machine's encoder for a keyframe now (rate limited). */
  | { event: 'keyframe_request'; data: { machineId: number } };

/**
 * Control endpoints (relative to `http://127.0.0.1:${controlPort}`). Both sides go through
 * mediaPath (the server's client) and matchMediaPath (the media process), never by hand.
 */
export const MediaControlPath = {
  Health: '/health',
  Ingests: '/ingests',
  Ingest: '/ingests/:machineId',
  Viewers: '/viewers',
  Viewer: '/viewers/:viewerId',
  Stats: '/stats',
} as const;
export type MediaPathKind = keyof typeof MediaControlPath;

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;
/** The `:name` parameters of a control path, e.g. `{ machineId: number | string }` for Ingest. */
export type MediaPathParams<K extends MediaPathKind> = {
  [N in ParamNames<(typeof MediaControlPath)[K]>]: string | number;
};

/** The path of a control endpoint with its parameters filled in (URI-encoded). */
export function mediaPath<K extends MediaPathKind>(
  kind: K,
  ...params: [ParamNames<(typeof MediaControlPath)[K]>] extends [never] ? [] : [MediaPathParams<K>]
): string {
  const values = (params[0] ?? {}) as Record<string, string | number>;
  return MediaControlPath[kind].replace(/:(\w+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`mediaPath ${kind}: no ${name}`);
    return encodeURIComponent(String(value));
  });
}

const segments = (path: string) => path.split('/').filter(Boolean);

/**
 * Which control endpoint a request path is, with its parameters decoded; null for any other path.
 * Empty segments are ignored (`/ingests/` is Ingests), as the control server always did.
 */
export function matchMediaPath(
  pathname: string,
): { kind: MediaPathKind; params: Record<string, string> } | null {
  const given = segments(pathname);
  for (const kind of Object.keys(MediaControlPath) as MediaPathKind[]) {
    const pattern = segments(MediaControlPath[kind]);
    if (pattern.length !== given.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((part, i) => {
      if (!part.startsWith(':')) return part === given[i];
      try {
        params[part.slice(1)] = decodeURIComponent(given[i]!);
        return true;
      } catch {
        return false;
      }
    });
    if (matches) return { kind, params };
  }
  return null;
}
