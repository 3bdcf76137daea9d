/**
 * WebSocket envelopes `{ event, data, seq }` for the browser channels, and what a client sends on
 * them. Every server→client message carries a per-connection-stream sequence number so a client
 * that reconnects with its last `seq` can be sent what it missed (or a snapshot when too much was
 * missed). What the server sends is in ws-server.ts.
 *
 * Each channel's messages are one schema per event; the TypeScript types are derived from those
 * schemas, so the server's validation and the clients' types cannot drift apart.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { Int4, Text } from './text.js';
import { AUTOPLAY_MAX_SPINS } from './ws-constants.js';

export { AUTOPLAY_MAX_SPINS, AUTOPLAY_SPIN_CHOICES, ChatAction, PROTOCOL_VERSION, SessionAction, WsCloseCode } from './ws-constants.js';

export interface Envelope<E extends string, D> {
  event: E;
  data: D;
  seq: number;
}

/** The `data` type of each event of a channel whose messages are one schema per event. */
export type EventsOf<S extends Record<string, TSchema>> = { -readonly [E in keyof S & string]: Static<S[E]> };
/** A server→client message of a channel: the envelope with `seq`. */
export type ServerMessageOf<M> = { [E in keyof M & string]: Envelope<E, M[E]> }[keyof M & string];
/** A client→server message of a channel: `{ event, data }` without `seq`. */
export type ClientMessageOf<M> = { [E in keyof M & string]: { event: E; data: M[E] } }[keyof M & string];

const Token = Text({ minLength: 1, maxLength: 4096 });
const CommandId = Text({ minLength: 1, maxLength: 64 });
const Empty = Type.Object({});

// --- Notification channel ------------------------------------------------------------------

/**
 * The `data` schema of each client→server message of the notification channel. `init` names the
 * user, as the spec's `init` with id. A message that does not match is ignored.
 */
export const NotificationClientSchemas = {
  init: Type.Object({
    id: Type.Optional(Int4()),
    token: Token,
    lastSeq: Type.Optional(Type.Integer({ minimum: 0 })),
    protocol: Type.Optional(Type.Integer()),
  }),
  ping: Empty,
};
export type NotificationClientEvents = EventsOf<typeof NotificationClientSchemas>;
export type NotificationClientMessage = ClientMessageOf<NotificationClientEvents>;

// --- Game channel --------------------------------------------------------------------------

const Cents = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

/**
 * Autoplay's own stops (issue 28), chosen by the player when turning it on: the server turns
 * autoplay off after `spins` games, once the games since it started lost `lossCents` or more (bets
 * less wins), or after one game that won `singleWinCents` or more, whichever comes first.
 */
export const AutoplayStops = Type.Object(
  {
    spins: Int4({ minimum: 1, maximum: AUTOPLAY_MAX_SPINS }),
    lossCents: Type.Optional(Cents),
    singleWinCents: Type.Optional(Cents),
  },
  { additionalProperties: false },
);
export type AutoplayStops = Static<typeof AutoplayStops>;

/**
 * The `data` schema of each client→server message of the game channel; the server refuses a
 * message that does not match with 40000. `init`'s token may instead come in the socket's query,
 * and a client that leaves out `protocol` (the spec's `init { machineID, token }`) is not checked.
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
  /** `stops` with `on: true`: where autoplay ends by itself (without them it runs until turned off). */
  autoplay: Type.Object({ commandId: CommandId, on: Type.Boolean(), stops: Type.Optional(AutoplayStops) }),
  band: Type.Object({ bandId: Text({ minLength: 1, maxLength: 64 }) }),
  /**
   * Which picture of the machine the video shows: its screen, or the camera on the whole cabinet.
   * Refused with 40302 while SHOW_WEBCAM is off; the `machine` view answers with the new videoType.
   */
  view: Type.Object({ videoType: Type.Union([Type.Literal('screen'), Type.Literal('camera')]) }),
  stream: Empty,
  /** Leaving the game on purpose: cash out and close the session. */
  leave: Empty,
  ping: Empty,
};
export type GameClientEvents = EventsOf<typeof GameClientSchemas>;
export type GameClientMessage = ClientMessageOf<GameClientEvents>;

/** The envelope of every client→server message: `{ event, data }`. */
// --- Watch channel -------------------------------------------------------------------------

/**
 * A spectator may ask for a fresh video grant and ping; nothing else. Any other event (a game
 * command) is answered with 40307 and never reaches the machine.
 */
export const WatchClientSchemas = {
  stream: Empty,
  ping: Empty,
};
export type WatchClientEvents = EventsOf<typeof WatchClientSchemas>;

export const ClientEnvelope = Type.Object({
  event: Type.String({ maxLength: 64 }),
  data: Type.Optional(Type.Unknown()),
});
