/**
 * Player protection (issue 28): the player's own limits (deposit and loss per day, week and month,
 * and a session time limit). Paths in paths.ts; the rules in docs/sessions.md, "Player protection".
 */
import { Type, type Static } from 'typebox';
import { IsoDate, Nullable } from './rest-fields.js';
import { LIMIT_KEYS, MAX_LIMIT_VALUE, REALITY_CHECK_MINUTES } from './protection.js';

const LimitKeySchema = Type.Union([
  Type.Literal('deposit_day'),
  Type.Literal('deposit_week'),
  Type.Literal('deposit_month'),
  Type.Literal('loss_day'),
  Type.Literal('loss_week'),
  Type.Literal('loss_month'),
  Type.Literal('session_minutes'),
]);

export const PlayerLimit = Type.Object(
  {
    key: LimitKeySchema,
    value: Nullable(Type.Integer({ description: 'The limit in force (cents, or minutes for session_minutes); null: none' })),
    used: Type.Integer({ description: 'Used in the current period (cents, or minutes of the open session)' }),
    resetsAt: Nullable(IsoDate('When the current period ends (null for the session time limit)')),
    pending: Nullable(
      Type.Object({
        value: Nullable(Type.Integer({ description: 'The raised value asked for; null: remove the limit' })),
        requestedAt: IsoDate('When the raise was asked for'),
        confirmableAt: IsoDate('From when the player may confirm it (LIMIT_INCREASE_DELAY_H later)'),
      }),
    ),
  },
  { $id: 'PlayerLimit' },
);
export type PlayerLimit = Static<typeof PlayerLimit>;

export const LimitsResponse = Type.Object(
  {
    status: Type.Boolean(),
    code: Type.Integer(),
    limits: Type.Array(PlayerLimit),
    increaseDelayH: Type.Number({ description: 'LIMIT_INCREASE_DELAY_H: hours before a raise may be confirmed' }),
    realityCheckMinutes: Type.Integer({ description: 'Minutes of play between two reality checks' }),
  },
  { $id: 'LimitsResponse' },
);
export type LimitsResponse = Static<typeof LimitsResponse>;

/**
 * Sets limits: each listed key to a value (or null to remove it). A lower (stricter) value applies
 * at once; a higher one, or a removal, waits LIMIT_INCREASE_DELAY_H and the player's confirmation.
 * Keys not listed stay as they are.
 */
export const LimitsUpdateRequest = Type.Object(
  {
    limits: Type.Array(
      Type.Object({ key: LimitKeySchema, value: Nullable(Type.Integer({ minimum: 1, maximum: MAX_LIMIT_VALUE })) }),
      { minItems: 1, maxItems: LIMIT_KEYS.length },
    ),
  },
  { $id: 'LimitsUpdateRequest' },
);
export type LimitsUpdateRequest = Static<typeof LimitsUpdateRequest>;

/** Confirms a pending raise (or removal) once its delay has passed. */
export const LimitConfirmRequest = Type.Object({ key: LimitKeySchema }, { $id: 'LimitConfirmRequest' });
export type LimitConfirmRequest = Static<typeof LimitConfirmRequest>;

const BreakPeriodSchema = Type.Union([
  Type.Literal('cool_off_24h'),
  Type.Literal('cool_off_7d'),
  Type.Literal('cool_off_1m'),
  Type.Literal('cool_off_2m'),
  Type.Literal('cool_off_3m'),
  Type.Literal('self_exclusion_6m'),
  Type.Literal('self_exclusion_1y'),
  Type.Literal('self_exclusion_5y'),
]);

/** Takes a break (BREAK_PERIODS): the player is signed out at once and their credits cashed out. */
export const BreakRequest = Type.Object({ period: BreakPeriodSchema }, { $id: 'BreakRequest' });
export type BreakRequest = Static<typeof BreakRequest>;

export const PlayerBreak = Type.Object(
  {
    kind: Type.Union([Type.Literal('cool_off'), Type.Literal('self_exclusion')]),
    period: BreakPeriodSchema,
    startsAt: IsoDate('When the break began'),
    endsAt: IsoDate('When sign-in is possible again'),
  },
  { $id: 'PlayerBreak' },
);
export type PlayerBreak = Static<typeof PlayerBreak>;

export const BreakResponse = Type.Object({ status: Type.Boolean(), code: Type.Integer(), break: PlayerBreak }, { $id: 'BreakResponse' });
export type BreakResponse = Static<typeof BreakResponse>;

/** The player's reality check interval, in minutes of play. */
export const RealityCheckRequest = Type.Object(
  { minutes: Type.Integer({ minimum: REALITY_CHECK_MINUTES.min, maximum: REALITY_CHECK_MINUTES.max }) },
  { $id: 'RealityCheckRequest' },
);
export type RealityCheckRequest = Static<typeof RealityCheckRequest>;

// --- Game recall: a session's game cycles from the server's records (AGCO §13, GLI-11) -------------

export const RecalledGame = Type.Object(
  {
    time: IsoDate('When the game was recorded'),
    betCents: Type.Integer({ description: '0 on a free spin' }),
    winCents: Type.Integer(),
    /** reels × rows, symbol names as they landed: symbols[reel][row]. */
    symbols: Type.Array(Type.Array(Type.String())),
    lineWins: Type.Array(Type.Object({ line: Type.Integer(), symbol: Type.String(), count: Type.Integer(), winCents: Type.Integer() })),
    creditsBeforeCents: Type.Integer(),
    creditsAfterCents: Type.Integer(),
    freeSpin: Type.Boolean(),
    jackpot: Type.Boolean(),
  },
  { $id: 'RecalledGame' },
);
export type RecalledGame = Static<typeof RecalledGame>;

/** The last 10 games of one of the player's sessions, newest first. */
export const GameRecallResponse = Type.Object(
  { status: Type.Boolean(), code: Type.Integer(), sessionId: Type.String(), games: Type.Array(RecalledGame) },
  { $id: 'GameRecallResponse' },
);
export type GameRecallResponse = Static<typeof GameRecallResponse>;

export const SessionIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) }, { $id: 'SessionIdParams' });
