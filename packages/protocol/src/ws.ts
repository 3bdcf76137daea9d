/**
 * WebSocket envelopes `{ event, data, seq }` for the browser channels.
 * Every server→client message carries a per-connection-stream sequence number so a client that
 * reconnects with its last `seq` can be sent what it missed (or a snapshot when too much was missed).
 */
import { Type, type TSchema } from 'typebox';
import type { MachineStatus, CabinetState } from './constants.js';
import type { Params } from './codes.js';
import type { QualityBand } from './rest.js';
import { Int4, Text } from './text.js';

export const PROTOCOL_VERSION = 1;

/** Close codes of the browser channels (the reason text says more). */
export const WsCloseCode = {
  /** Another connection took the session over (QUIT_REQUEST), or the player kicked this one. */
  QuitRequest: 4000,
  /** The token is missing, invalid, expired or revoked (logout, ban). */
  InvalidToken: 4001,
  /** The game channel's `init` failed (the `error` message before it carries the code). */
  JoinFailed: 4002,
  /** The game channel got no `init` in time. */
  InitTimeout: 4003,
} as const;

export interface Envelope<E extends string, D> {
  event: E;
  data: D;
  seq: number;
}
type Union<M> = { [E in keyof M & string]: Envelope<E, M[E]> }[keyof M & string];

// --- Notification channel ------------------------------------------------------------------

export interface MachineNotification {
  id: number;
  status: MachineStatus;
  hot?: boolean;
}
export interface BalanceNotification {
  balance: number;
  cash: number;
  credit: number;
  bonus: number;
  discount: number;
}
export interface SessionNotification {
  status: 'open' | 'disconnected' | 'closed';
  name: string;
  id: number;
  machine_status: CabinetState | 'unknown';
  session_id: string;
}
export interface InfoNotification {
  code: number;
  params: Params;
  message: string;
  /** Named action such as SESSION_CLOSE_WARNING, QUIT_REQUEST or CLOSE_SESSION, or '' for a plain notice. */
  action: string;
}
export interface JackpotNotification {
  brandId: number;
  /** Comma-separated jackpot values in cents, as on the brand. */
  jackpot: string;
  hit?: { machineId: number; amountCents: number; level: number };
}
export interface HelloNotification {
  protocol: number;
  userId: number;
  /** Seq of the last message already in the stream; the client continues from here. */
  seq: number;
  /** True when the client's lastSeq could not be served and it should reload state by REST. */
  snapshot: boolean;
}

export interface NotificationServerEvents {
  hello: HelloNotification;
  machine: MachineNotification;
  balance: BalanceNotification;
  session: SessionNotification;
  info: InfoNotification;
  jackpot: JackpotNotification;
  /** The token stopped working (logout, expiry, ban): the client must sign out. */
  logout: { code: number };
}
export type NotificationServerMessage = Union<NotificationServerEvents>;

// --- Jackpot signal channel (`WsPath.jackpot`) ----------------------------------------------

/**
 * Server→client on the jackpot signal socket: `jackpots` once on connect (every brand's current
 * values), then each `jackpot` change or hit as it happens; `logout` before a close for a bad token.
 * Sequence numbers count per socket from 1. The client sends nothing.
 */
export interface JackpotSignalEvents {
  jackpots: { brands: JackpotNotification[] };
  jackpot: JackpotNotification;
  logout: { code: number };
}
export type JackpotSignalMessage = Union<JackpotSignalEvents>;

/** Client→server on the notification channel. `init` names the user, as the spec's `init` with id. */
export interface NotificationClientEvents {
  init: { id: number; token: string; lastSeq?: number; protocol: number };
  ping: Record<string, never>;
}
export type NotificationClientMessage = { [E in keyof NotificationClientEvents]: { event: E; data: NotificationClientEvents[E] } }[keyof NotificationClientEvents];

const Token = Text({ minLength: 1, maxLength: 4096 });
const CommandId = Text({ minLength: 1, maxLength: 64 });
const Empty = Type.Object({});

/** The `data` schema of each client→server message of the notification channel. */
export const NotificationClientSchemas = {
  init: Type.Object({
    id: Type.Optional(Int4()),
    token: Token,
    lastSeq: Type.Optional(Type.Integer({ minimum: 0 })),
    protocol: Type.Optional(Type.Integer()),
  }),
  ping: Empty,
} satisfies Record<keyof NotificationClientEvents, TSchema>;

// --- Game channel --------------------------------------------------------------------------

export const SessionAction = {
  SessionCloseWarning: 'SESSION_CLOSE_WARNING',
  QuitRequest: 'QUIT_REQUEST',
  CloseSession: 'CLOSE_SESSION',
} as const;
export type SessionAction = (typeof SessionAction)[keyof typeof SessionAction];

export interface StreamGrant {
  /** Opaque signed grant the media part checks; short-lived. */
  grant: string;
  expiresAt: string;
  /** WHEP-style endpoint to POST the SDP offer to, with the grant as bearer. */
  whepUrl: string;
  iceServers: { urls: string | string[]; username?: string; credential?: string }[];
}

/** A game cycle as the player sees it (from the cabinet's report). */
export interface GameCycleView {
  gameId: string;
  /** The client's `spin` commandId that started this game; absent for free spins and autoplay. */
  commandId?: string;
  betCents: number;
  winCents: number;
  symbols: string[][];
  creditsBeforeCents: number;
  creditsAfterCents: number;
  freeSpin: boolean;
  freeSpinsLeft: number;
  jackpotHit: boolean;
  handPay: boolean;
}

export interface SessionView {
  sessionId: string;
  machineId: number;
  spins: number;
  freeSpins: number;
  cashInCents: number;
  cashOutCents: number;
  /** Money won minus money bet during the session (responsible-gaming display). */
  netCents: number;
  startedAt: string;
}

export interface MachineView {
  machineId: number;
  cabinetState: CabinetState;
  creditsCents: number;
  betCents: number;
  betLevel: number;
  autoplay: boolean;
  freeSpinsLeft: number;
  /**
   * Present while the machine's video cannot start (the cabinet's encoder gave up): the catalogue
   * code to show, 70000 (PipelineFailed). The cabinet state is then 'error'; the screen shows
   * "video unavailable" with this code and a way back to the lobby instead of waiting for video.
   */
  videoError?: number;
}

export interface GameServerEvents {
  joined: {
    machineId: number;
    name: string;
    videoType: 'screen' | 'camera';
    bands: QualityBand[];
    activeBand: string;
    stream: StreamGrant | null;
    betLevels: number[];
    machine: MachineView;
    session: SessionView;
    resumed: boolean;
  };
  error: { code: number; ErrorMessage: string; Params?: Params; fatal: boolean };
  machine: MachineView;
  cycle: GameCycleView;
  session: SessionView;
  info: InfoNotification;
  cashedOut: { amountCents: number; balanceCents: number };
  cashedIn: { amountCents: number; balanceCents: number };
  moneyTransfer: { active: boolean };
  stream: StreamGrant;
  /** The session ended (left, closed by the server, or taken over by another connection). */
  closed: { reason: string; code: number };
}
export type GameServerMessage = Union<GameServerEvents>;

export interface GameClientEvents {
  init: { machineID: number; token: string; protocol: number };
  cashout: Record<string, never>;
  cashin: { amountCents: number; idempotencyKey: string };
  spin: { commandId: string };
  bet: { commandId: string; level: number };
  autoplay: { commandId: string; on: boolean };
  band: { bandId: string };
  stream: Record<string, never>;
  /** Leaving the game on purpose: cash out and close the session. */
  leave: Record<string, never>;
  ping: Record<string, never>;
}
export type GameClientMessage = { [E in keyof GameClientEvents]: { event: E; data: GameClientEvents[E] } }[keyof GameClientEvents];

/**
 * The `data` schema of each client→server message of the game channel; the server refuses a
 * message that does not match with 40000. `init`'s token may instead come in the socket's query.
 */
export const GameClientSchemas = {
  init: Type.Object({
    machineID: Int4({ minimum: 1 }),
    token: Type.Optional(Token),
    protocol: Type.Optional(Type.Integer()),
  }),
  cashout: Empty,
  cashin: Type.Object({
    amountCents: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
    idempotencyKey: Text({ minLength: 1, maxLength: 100 }),
  }),
  spin: Type.Object({ commandId: CommandId }),
  bet: Type.Object({ commandId: CommandId, level: Int4({ minimum: 0 }) }),
  autoplay: Type.Object({ commandId: CommandId, on: Type.Boolean() }),
  band: Type.Object({ bandId: Text({ minLength: 1, maxLength: 64 }) }),
  stream: Empty,
  leave: Empty,
  ping: Empty,
} satisfies Record<keyof GameClientEvents, TSchema>;

/** The envelope of every client→server message: `{ event, data }`. */
export const ClientEnvelope = Type.Object({ event: Type.String({ maxLength: 64 }), data: Type.Optional(Type.Unknown()) });
