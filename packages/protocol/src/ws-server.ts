/**
 * What the server sends on the browser channels: one schema per event, with the TypeScript types
 * derived from them. The server's tests check every message they see against these, so a field the
 * server adds, drops or retypes without the contract fails a test instead of a browser.
 */
import { Type, type Static } from 'typebox';
import { AgentMachineState } from './agent.js';
import { MachineStatus } from './constants.js';
import { IceServer } from './media.js';
import { ParamsSchema, QualityBand, QueueEndReason, QueueEntry } from './rest.js';
import { Nullable } from './rest-fields.js';
import type { EventsOf, ServerMessageOf } from './ws.js';

const Cents = Type.Integer();
const Closed = { additionalProperties: false } as const;
const MachineStatusSchema = Type.Enum(Object.values(MachineStatus));
const VideoTypeSchema = Type.Union([Type.Literal('screen'), Type.Literal('camera')]);

// --- Notification channel ------------------------------------------------------------------

export const MachineNotification = Type.Object(
  {
    id: Type.Integer(),
    status: MachineStatusSchema,
    hot: Type.Optional(Type.Boolean()),
    /** Players in the machine's queue (issue 29). */
    queue: Type.Optional(Type.Integer()),
  },
  Closed,
);
export type MachineNotification = Static<typeof MachineNotification>;

export const BalanceNotification = Type.Object(
  { balance: Cents, cash: Cents, credit: Cents, bonus: Cents, discount: Cents },
  Closed,
);
export type BalanceNotification = Static<typeof BalanceNotification>;

export const SessionNotification = Type.Object(
  {
    status: Type.Union([Type.Literal('open'), Type.Literal('disconnected'), Type.Literal('closed')]),
    name: Type.String(),
    id: Type.Integer(),
    machine_status: Type.Union([AgentMachineState, Type.Literal('unknown')]),
    session_id: Type.String(),
  },
  Closed,
);
export type SessionNotification = Static<typeof SessionNotification>;

export const InfoNotification = Type.Object(
  {
    code: Type.Integer(),
    params: ParamsSchema,
    message: Type.String(),
    /** Named action such as SESSION_CLOSE_WARNING, QUIT_REQUEST or CLOSE_SESSION, or '' for a plain notice. */
    action: Type.String(),
  },
  Closed,
);
export type InfoNotification = Static<typeof InfoNotification>;

export const JackpotNotification = Type.Object(
  {
    brandId: Type.Integer(),
    /** Comma-separated jackpot values in cents, as on the brand. */
    jackpot: Type.String(),
    hit: Type.Optional(
      Type.Object({ machineId: Type.Integer(), amountCents: Cents, level: Type.Integer() }, Closed),
    ),
  },
  Closed,
);
export type JackpotNotification = Static<typeof JackpotNotification>;

export const HelloNotification = Type.Object(
  {
    protocol: Type.Integer(),
    userId: Type.Integer(),
    /** Seq of the last message already in the stream; the client continues from here. */
    seq: Type.Integer(),
    /** True when the client's lastSeq could not be served and it should reload state by REST. */
    snapshot: Type.Boolean(),
  },
  Closed,
);
export type HelloNotification = Static<typeof HelloNotification>;

/** The token stopped working (logout, expiry, ban): the client must sign out. */
/** `Params` says more where the code has placeholders (a break's `until`). */
const Logout = Type.Object({ code: Type.Integer(), Params: Type.Optional(ParamsSchema) }, Closed);

/** The player's queue entry changed (position, wait, ready check); `entry` null with `ended` when it ended. */
export const QueueNotification = Type.Object({ entry: Nullable(QueueEntry), ended: Type.Optional(QueueEndReason) }, Closed);
export type QueueNotification = Static<typeof QueueNotification>;

/** How many spectators watch a machine now (lobby cards, the watch page, the player's game screen). */
export const WatchersNotification = Type.Object({ id: Type.Integer(), count: Type.Integer({ minimum: 0 }) }, Closed);
export type WatchersNotification = Static<typeof WatchersNotification>;

export const NotificationServerSchemas = {
  hello: HelloNotification,
  machine: MachineNotification,
  watchers: WatchersNotification,
  balance: BalanceNotification,
  session: SessionNotification,
  info: InfoNotification,
  jackpot: JackpotNotification,
  queue: QueueNotification,
  logout: Logout,
  /** The answer to `ping` (seq 0: not part of the replayed stream). */
  pong: Type.Object({}, Closed),
};
export type NotificationServerEvents = EventsOf<typeof NotificationServerSchemas>;
export type NotificationServerMessage = ServerMessageOf<NotificationServerEvents>;

// --- Jackpot signal channel (`WsPath.jackpot`) ----------------------------------------------

/**
 * Server→client on the jackpot signal socket: `jackpots` once on connect (every brand's current
 * values), then each `jackpot` change or hit as it happens; `logout` before a close for a bad token.
 * Sequence numbers count per socket from 1. The client sends nothing.
 */
export const JackpotSignalSchemas = {
  jackpots: Type.Object({ brands: Type.Array(JackpotNotification) }, Closed),
  jackpot: JackpotNotification,
  logout: Logout,
};
export type JackpotSignalEvents = EventsOf<typeof JackpotSignalSchemas>;
export type JackpotSignalMessage = ServerMessageOf<JackpotSignalEvents>;

// --- Game channel --------------------------------------------------------------------------

export const StreamGrant = Type.Object(
  {
    /** Opaque signed grant the media part checks; short-lived. */
    grant: Type.String(),
    expiresAt: Type.String(),
    /** WHEP-style endpoint to POST the SDP offer to, with the grant as bearer. */
    whepUrl: Type.String(),
    iceServers: Type.Array(IceServer),
  },
  Closed,
);
export type StreamGrant = Static<typeof StreamGrant>;

/** A game cycle as the player sees it (from the cabinet's report). */
export const GameCycleView = Type.Object(
  {
    gameId: Type.String(),
    /** The client's `spin` commandId that started this game; absent for free spins and autoplay. */
    commandId: Type.Optional(Type.String()),
    betCents: Cents,
    winCents: Cents,
    symbols: Type.Array(Type.Array(Type.String())),
    creditsBeforeCents: Cents,
    creditsAfterCents: Cents,
    freeSpin: Type.Boolean(),
    freeSpinsLeft: Type.Integer(),
    jackpotHit: Type.Boolean(),
    handPay: Type.Boolean(),
  },
  Closed,
);
export type GameCycleView = Static<typeof GameCycleView>;

export const SessionView = Type.Object(
  {
    sessionId: Type.String(),
    machineId: Type.Integer(),
    spins: Type.Integer(),
    freeSpins: Type.Integer(),
    cashInCents: Cents,
    cashOutCents: Cents,
    /** Money won minus money bet during the session (responsible-gaming display). */
    netCents: Cents,
    startedAt: Type.String(),
  },
  Closed,
);
export type SessionView = Static<typeof SessionView>;

export const MachineView = Type.Object(
  {
    machineId: Type.Integer(),
    cabinetState: AgentMachineState,
    creditsCents: Cents,
    betCents: Cents,
    betLevel: Type.Integer(),
    autoplay: Type.Boolean(),
    freeSpinsLeft: Type.Integer(),
    /** What the video shows now: the machine's screen, or the camera on the whole cabinet (`view`). */
    videoType: VideoTypeSchema,
    /**
     * Present while the machine's video cannot start (the cabinet's encoder gave up): the catalogue
     * code to show, 70000 (PipelineFailed). The cabinet state is then 'error'; the screen shows
     * "video unavailable" with this code and a way back to the lobby instead of waiting for video.
     * 70001 (MachineWithoutVideo): a headless cabinet that has no video at all; its state stays
     * playable (the floor bench plays it through the API), the screen shows the same notice.
     */
    videoError: Type.Optional(Type.Integer()),
    /**
     * Present while staff hold the machine with an emergency stop: their reason. The screen shows
     * it with Spin disabled; the cabinet refuses every command (40905) until they release it.
     */
    emergencyStop: Type.Optional(Type.String()),
  },
  Closed,
);
export type MachineView = Static<typeof MachineView>;

const MoneyMoved = Type.Object({ amountCents: Cents, balanceCents: Cents }, Closed);

export const GameServerSchemas = {
  joined: Type.Object(
    {
      machineId: Type.Integer(),
      name: Type.String(),
      videoType: VideoTypeSchema,
      bands: Type.Array(QualityBand),
      activeBand: Type.String(),
      stream: Type.Union([StreamGrant, Type.Null()]),
      betLevels: Type.Array(Type.Integer()),
      machine: MachineView,
      session: SessionView,
      resumed: Type.Boolean(),
    },
    Closed,
  ),
  error: Type.Object(
    {
      code: Type.Integer(),
      ErrorMessage: Type.String(),
      Params: Type.Optional(ParamsSchema),
      fatal: Type.Boolean(),
    },
    Closed,
  ),
  machine: MachineView,
  cycle: GameCycleView,
  session: SessionView,
  info: InfoNotification,
  cashedOut: MoneyMoved,
  cashedIn: MoneyMoved,
  moneyTransfer: Type.Object({ active: Type.Boolean() }, Closed),
  stream: StreamGrant,
  /** The session ended (left, closed by the server, or taken over by another connection). */
  closed: Type.Object({ reason: Type.String(), code: Type.Integer() }, Closed),
};
export type GameServerEvents = EventsOf<typeof GameServerSchemas>;
export type GameServerMessage = ServerMessageOf<GameServerEvents>;

// --- Watch channel (`WsPath.watch`) ---------------------------------------------------------

/**
 * The public part of one game: what any spectator may see. Never the player's name, balance,
 * credits or address (a spectator sees the reels on the video and these figures beside them).
 */
export const PublicPlay = Type.Object(
  {
    machineId: Type.Integer(),
    gameId: Type.String(),
    betCents: Cents,
    winCents: Cents,
    freeSpin: Type.Boolean(),
    jackpotHit: Type.Boolean(),
    at: Type.String(),
  },
  Closed,
);
export type PublicPlay = Static<typeof PublicPlay>;

/**
 * Server→spectator on the watch socket: `watching` once accepted (the machine, a spectator's
 * video grant, the watcher count), then `play` per game, `watchers` when the count changes,
 * `stream` (a fresh grant) when asked; `error` for a refusal (fatal ones close the socket).
 */
export const WatchServerSchemas = {
  watching: Type.Object(
    { machineId: Type.Integer(), name: Type.String(), stream: Type.Union([StreamGrant, Type.Null()]), watchers: Type.Integer() },
    Closed,
  ),
  play: PublicPlay,
  watchers: WatchersNotification,
  stream: StreamGrant,
  error: Type.Object(
    { code: Type.Integer(), ErrorMessage: Type.String(), Params: Type.Optional(ParamsSchema), fatal: Type.Boolean() },
    Closed,
  ),
  pong: Type.Object({}, Closed),
};
export type WatchServerEvents = EventsOf<typeof WatchServerSchemas>;
export type WatchServerMessage = ServerMessageOf<WatchServerEvents>;
