/**
 * The agent channel: cabinet (machine agent) ↔ server, over the WebSocket at `/ws/agent`.
 *
 * One agent process opens one connection and multiplexes the machines it drives; each machine
 * authenticates with its own key before anything it reports is accepted. Messages are JSON
 * envelopes `{ event, data }` keyed on `event` (the same shape as the browser channels, without
 * `seq`: the agent channel is not replayed, the cabinet re-sends its full state after reconnecting).
 *
 * Every command carries a unique `commandId`; the cabinet runs a command at most once and answers a
 * duplicate with the first result, so the server may retry freely after a timeout or reconnect.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { CABINET_STATES, FAULT_CABINET_STATES, type CabinetState, type VideoType } from './constants.js';

export const AGENT_PROTOCOL_VERSION = 1;
export const AGENT_WS_PATH = '/ws/agent';

/** `CabinetState` of constants.ts as a schema. */
export const AgentMachineState = Type.Enum(CABINET_STATES);
export type AgentMachineState = CabinetState;

/** Symbol names used by the simulated video slot (the cycle reports symbols by name). */
export const SlotSymbol = {
  Wild: 'WILD',
  Seven: 'SEVEN',
  Bar: 'BAR',
  Bell: 'BELL',
  Melon: 'MELON',
  Plum: 'PLUM',
  Orange: 'ORANGE',
  Lemon: 'LEMON',
  Cherry: 'CHERRY',
  Scatter: 'STAR',
} as const;
export type SlotSymbol = (typeof SlotSymbol)[keyof typeof SlotSymbol];

export const LineWin = Type.Object({
  line: Type.Integer({ description: '0-based payline index' }),
  symbol: Type.String(),
  count: Type.Integer(),
  winCents: Type.Integer(),
});
export type LineWin = Static<typeof LineWin>;

/** One game cycle as a real cabinet's game recall would show it. */
export const GameCycle = Type.Object({
  gameId: Type.String({ description: 'Unique per machine: `${machineId}-${gamesPlayed}`' }),
  /** The spin command that started this game; absent for free spins and autoplay. */
  commandId: Type.Optional(Type.String()),
  betCents: Type.Integer({ description: '0 on a free spin' }),
  winCents: Type.Integer(),
  /** reels × rows, symbol names: symbols[reel][row]. */
  symbols: Type.Array(Type.Array(Type.String())),
  lineWins: Type.Array(LineWin),
  scatterCount: Type.Integer(),
  scatterWinCents: Type.Integer(),
  creditsBeforeCents: Type.Integer(),
  creditsAfterCents: Type.Integer(),
  freeSpin: Type.Boolean(),
  freeSpinsAwarded: Type.Integer(),
  freeSpinsLeft: Type.Integer(),
  /** A jackpot outcome; the platform pays it from the jackpot pool, not the machine's meter. */
  jackpotHit: Type.Boolean(),
  startedAtMs: Type.Number(),
  endedAtMs: Type.Number(),
});
export type GameCycle = Static<typeof GameCycle>;

/** Cumulative meters, in integer cents and counts (like SAS meters on a real cabinet). */
export const MachineMeters = Type.Object({
  creditsCents: Type.Integer(),
  coinInCents: Type.Integer({ description: 'Total bets' }),
  coinOutCents: Type.Integer({ description: 'Total wins paid to the credit meter' }),
  cashInCents: Type.Integer({ description: 'Total credit_in' }),
  cashOutCents: Type.Integer({ description: 'Total cash_out' }),
  gamesPlayed: Type.Integer(),
  gamesWon: Type.Integer(),
  freeGamesPlayed: Type.Integer(),
  bonusTriggers: Type.Integer(),
  jackpotHits: Type.Integer(),
  betCents: Type.Integer({ description: 'Current total bet per spin' }),
  betLevel: Type.Integer(),
  autoplay: Type.Boolean(),
  freeSpinsLeft: Type.Integer(),
});
export type MachineMeters = Static<typeof MachineMeters>;

export const StreamTarget = Type.Object({
  host: Type.String({ default: '127.0.0.1' }),
  videoPort: Type.Integer(),
  audioPort: Type.Integer(),
  videoSsrc: Type.Integer(),
  audioSsrc: Type.Integer(),
  videoPayloadType: Type.Integer({ default: 96 }),
  audioPayloadType: Type.Integer({ default: 111 }),
  bandId: Type.String(),
  /** Draw the latency timestamp strip (benchmarks). */
  timestampStrip: Type.Optional(Type.Boolean()),
});
export type StreamTarget = Static<typeof StreamTarget>;

// --- Commands (server → cabinet) --------------------------------------------------------------

const cmd = <T extends string, P extends Record<string, TSchema>>(type: T, props: P) =>
  Type.Object({
    commandId: Type.String({ minLength: 1, maxLength: 100 }),
    /** Epoch ms after which the cabinet refuses the command as stale instead of running it late. */
    expiresAtMs: Type.Optional(Type.Number()),
    type: Type.Literal(type),
    ...props,
  });

export const AgentCommand = Type.Union([
  cmd('credit_in', { amountCents: Type.Integer({ minimum: 1 }) }),
  cmd('spin', {}),
  cmd('set_bet_level', { level: Type.Integer({ minimum: 0 }) }),
  cmd('autoplay', { on: Type.Boolean() }),
  cmd('cash_out', {}),
  /** The cabinet's stop button: ends autoplay and slams spinning reels to a stop. */
  cmd('stop', {}),
  cmd('stream_start', { target: StreamTarget }),
  cmd('stream_stop', {}),
  cmd('set_band', { bandId: Type.String() }),
  /**
   * Which picture the stream carries: the screen, or the floor camera's view of the whole cabinet
   * (drawn into the same canvas, so the stream itself does not change). A cabinet whose video is a
   * real camera, or that has no video, answers rejected/unsupported.
   */
  cmd('set_view', { view: Type.Union([Type.Literal('screen'), Type.Literal('camera')]) }),
  /**
   * A viewer lost the picture: send a keyframe now instead of at the next keyframe interval. The
   * media process rate-limits these (apps/media/src/keyframe-requests.ts).
   */
  cmd('keyframe', {}),
  /**
   * The cabinet's critical memory as it stands: identity, meters, state, the last games and any
   * incomplete game. The server compares it with its own game records after every (re)connect.
   */
  cmd('recall', {}),
  /** Operator/test: put the machine into error or malfunction, or clear it back to idle. */
  cmd('set_fault', {
    fault: Type.Enum(['none', ...FAULT_CABINET_STATES]),
  }),
]);
export type AgentCommand = Static<typeof AgentCommand>;
export type AgentCommandType = AgentCommand['type'];

export const CommandOutcome = {
  Ok: 'ok',
  Rejected: 'rejected',
  Stale: 'stale',
} as const;
export type CommandOutcome = (typeof CommandOutcome)[keyof typeof CommandOutcome];

export const CommandRejectReason = {
  Busy: 'busy',
  InsufficientCredits: 'insufficient_credits',
  InvalidBetLevel: 'invalid_bet_level',
  NoCredits: 'no_credits',
  Faulted: 'faulted',
  Unsupported: 'unsupported',
  UnknownBand: 'unknown_band',
  Offline: 'offline',
  /** The cabinet's outbox of cycles the server has not acknowledged is full: no new paid game. */
  UnacknowledgedGames: 'unacknowledged_games',
} as const;
export type CommandRejectReason = (typeof CommandRejectReason)[keyof typeof CommandRejectReason];

/** The answer to `recall`: what a real cabinet's NVRAM holds (GLI-11 critical memory). */
export const MemoryRecall = Type.Object({
  /** Random id of this memory, made when it was initialised: a cleared memory or another cabinet has a new one. */
  memoryId: Type.String(),
  state: AgentMachineState,
  meters: MachineMeters,
  /** The last games, oldest first (at most 10). */
  games: Type.Array(GameCycle),
  /** A game whose bet is taken and whose result is not yet paid (the reels are turning). */
  incompleteGame: Type.Union([
    Type.Null(),
    Type.Object({ betCents: Type.Integer(), freeSpin: Type.Boolean() }),
  ]),
});
export type MemoryRecall = Static<typeof MemoryRecall>;

export const CommandResult = Type.Object({
  commandId: Type.String(),
  type: Type.String(),
  outcome: Type.Union([Type.Literal('ok'), Type.Literal('rejected'), Type.Literal('stale')]),
  reason: Type.Optional(Type.String()),
  /** True when this answer is a replay of an earlier run of the same commandId. */
  duplicate: Type.Optional(Type.Boolean()),
  creditsCents: Type.Integer(),
  /** cash_out: the amount taken off the meter. */
  amountCents: Type.Optional(Type.Integer()),
  /** spin: the finished game cycle (the spin answers once the reels stopped). */
  cycle: Type.Optional(GameCycle),
  betCents: Type.Optional(Type.Integer()),
  /** recall: the cabinet's critical memory. */
  recall: Type.Optional(MemoryRecall),
});
export type CommandResult = Static<typeof CommandResult>;

// --- Envelopes ---------------------------------------------------------------------------------

export interface AgentEnvelope<E extends string, D> {
  event: E;
  data: D;
}
type Union<M> = { [E in keyof M & string]: AgentEnvelope<E, M[E]> }[keyof M & string];

export const BetLevelsInfo = Type.Object({
  betLevels: Type.Array(Type.Integer(), { description: 'Total bet per spin in cents, per level' }),
  lines: Type.Integer(),
});

/** Cabinet → server. */
export interface AgentClientEvents {
  hello: { protocol: number; agentId: string; software: string };
  auth: {
    machineId: number;
    key: string;
    videoType: VideoType;
    bands: { id: string; name: string; width: number; height: number; bitrateKbps: number; Order: number }[];
    betLevels: number[];
    lines: number;
    /** Runs without rendering or encoding (`--no-video`): same game, meters and protocol, no video at all. */
    headless?: boolean;
  };
  state: {
    machineId: number;
    state: AgentMachineState;
    previous: AgentMachineState | null;
    atMs: number;
    reason?: string;
    /**
     * Present while the machine's video cannot start: the cabinet's encoder failed repeatedly and
     * stopped retrying. The first error line ffmpeg printed, e.g. "Unrecognized option 'fps_mode'.".
     * The state is then 'error' (or an operator fault); absent again once video works.
     */
    videoError?: string;
    /**
     * Present while an emergency stop holds (the staff's reason): the cabinet refuses every command
     * until the server releases it, and keeps the stop in its critical memory across restarts.
     */
    emergencyStop?: string;
  };
  /**
   * A finished game. The cabinet keeps it in its critical memory (its outbox of unacknowledged
   * cycles) and sends it again, in play order, after every (re)authentication and whenever its
   * `cycle_ack` is overdue, until the server acknowledges it.
   */
  cycle: { machineId: number; cycle: GameCycle };
  meters: { machineId: number; meters: MachineMeters };
  /**
   * A still of the machine's screen for the lobby (`GET /api/machine/{id}/image`), sent every
   * SNAPSHOT_INTERVAL_MS while authenticated. `view`: which video type it shows.
   */
  snapshot: { machineId: number; view: VideoType; mime: 'image/jpeg'; dataBase64: string };
  command_result: { machineId: number; result: CommandResult };
}
export type AgentClientMessage = Union<AgentClientEvents>;

/** What the server tells a cabinet about itself when it authenticates. */
export const MachineProfile = Type.Object({
  /** The machine's name and its brand group's name (the cabinet paints the brand's title and art). */
  name: Type.String(),
  brand: Type.String(),
  /** Frames per second of the video (Settings.json `FPS`). */
  fps: Type.Number(),
});
export type MachineProfile = Static<typeof MachineProfile>;

/** How often a cabinet sends a still of its screen for the lobby. */
export const SNAPSHOT_INTERVAL_MS = 10_000;
/** A snapshot older than this is not shown; the lobby shows the brand's art instead. */
export const SNAPSHOT_MAX_AGE_MS = 120_000;
/** Snapshot size: a lobby card's picture. */
export const SNAPSHOT_SIZE = { width: 320, height: 180 } as const;

/** Server → cabinet. */
export interface AgentServerEvents {
  welcome: { protocol: number; serverTimeMs: number };
  auth_result: {
    machineId: number;
    ok: boolean;
    reason?: 'unknown_machine' | 'bad_key' | 'duplicate' | 'protocol';
    /** With ok: what the operator configured for this machine (its brand's look, the frame rate). */
    profile?: MachineProfile;
  };
  command: { machineId: number; command: AgentCommand };
  /**
   * The cycle with this game id is stored (its transaction committed, or it was stored before):
   * the cabinet drops it from its outbox of unacknowledged cycles.
   */
  cycle_ack: { machineId: number; gameId: string };
  /**
   * Staff stopped the machine (`stopped`, with why) or released it. The server sends it when staff
   * act and again at every authentication, so the cabinet always ends up holding the server's word.
   */
  emergency_stop: { machineId: number; stopped: boolean; reason: string };
  error: { reason: string };
}
export type AgentServerMessage = Union<AgentServerEvents>;

/** WebSocket close codes of the agent channel. */
export const AgentCloseCode = {
  ProtocolMismatch: 4400,
  Unauthorized: 4401,
  Replaced: 4409,
} as const;
