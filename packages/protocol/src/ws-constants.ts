/**
 * The browser channels' plain values (protocol version, close codes, session actions), apart from
 * ws.ts's schemas so a browser bundle can have them without the schema library.
 */

/**
 * The browser channels' protocol version. A game channel `init` that states another version is
 * refused with 42600 (ProtocolMismatch) and close 4004: an old page would misread the messages.
 */
export const PROTOCOL_VERSION = 1;

/** The most spins a player may choose for one autoplay (`autoplay.stops.spins`). */
export const AUTOPLAY_MAX_SPINS = 1000;
/** The numbers of spins the game screen offers when autoplay is turned on. */
export const AUTOPLAY_SPIN_CHOICES = [10, 25, 50, 100] as const;

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
  /** The game channel's `init` stated another `protocol` than PROTOCOL_VERSION (error 42600 before it). */
  ProtocolMismatch: 4004,
} as const;

/** Named actions of `info` messages (InfoNotification.action). */
export const SessionAction = {
  SessionCloseWarning: 'SESSION_CLOSE_WARNING',
  QuitRequest: 'QUIT_REQUEST',
  CloseSession: 'CLOSE_SESSION',
  /** A win above the machine's hand-pay limit: an attendant pays it (params.amount), not the credit meter. */
  HandPay: 'HAND_PAY',
} as const;
export type SessionAction = (typeof SessionAction)[keyof typeof SessionAction];

/**
 * The support chat's `info` on the notification channel (code 20000): a new message in one of the
 * player's conversations. The chat panel refreshes on it; it is no notice to show.
 */
export const ChatAction = { Message: 'CHAT_MESSAGE' } as const;
