/**
 * What the fault suite records and reads, as plain data, so the checker (checker.ts, model.ts) is a
 * pure function that unit tests can feed planted histories.
 *
 * The history is what the clients were told, nothing else: each operation with its outcome.
 * - `ok`: the client was told it happened (an acknowledgement);
 * - `refused`: the client was told it did not happen (an answer that guarantees nothing moved);
 * - `unknown`: no answer (a kill, a timeout), or an answer that does not say: it may have happened
 *   once, or not at all, and the checker resolves which from the ledger's idempotency key.
 */

export type Outcome = 'ok' | 'refused' | 'unknown';
export type WalletPart = 'cash' | 'credit' | 'bonus' | 'discount';
export type Parts = Record<WalletPart, number>;
/** The server draws a cash in from the wallet's parts in this order (docs/money.md). */
export const SPEND_ORDER: readonly WalletPart[] = ['discount', 'bonus', 'credit', 'cash'];

export type HistoryOp =
  /** `key` is the client's idempotency key; the game channel books it as `cashin:<key>`. */
  | { type: 'cashIn'; player: string; key: string; amountCents: number; outcome: Outcome; sends: number; sentAt: number }
  /** Acknowledged by the `cycle` its command started; `sends` > 1: sent again with the same command id. */
  | { type: 'spin'; player: string; commandId: string; outcome: Outcome; sends: number; sentAt: number; ackedAt?: number }
  /** Every game the client was told about (its spins, autoplay, free spins). */
  | { type: 'cycle'; player: string; machineId: number; gameId: string; commandId?: string; betCents: number; winCents: number; freeSpin: boolean; jackpotHit: boolean; at: number }
  | { type: 'autoplay'; player: string; on: boolean; outcome: Outcome; sentAt: number }
  /** A `cashedOut` the client was told: this much went from the machine to the wallet. */
  | { type: 'cashOut'; player: string; amountCents: number; at: number }
  /** `amountCents` is what the acknowledgement said was credited. */
  | { type: 'promotion'; player: string; kind: 'bonus' | 'discount'; key: string; outcome: Outcome; amountCents?: number; sentAt: number }
  /** The operator's deposit or withdrawal (the operator CLI's commands), with its `--key`. */
  | { type: 'cashier'; player: string; direction: 'deposit' | 'withdraw'; key: string; amountCents: number; outcome: Outcome; sentAt: number }
  /**
   * A staff member's approval of hand pay `handPayId` through the console API; `paid`: the answer
   * said this approval paid it (a first signature of a two-signer hand pay answers `paid: false`).
   */
  | { type: 'handPayApproval'; player: string; handPayId: number; amountCents: number; signer: string; outcome: Outcome; paid?: boolean; sentAt: number; ackedAt?: number }
  /** The player's `PUT /api/player/limits`: a lowered (or first) limit applies once acknowledged. */
  | { type: 'limits'; player: string; limits: { key: MoneyLimitKey; value: number }[]; outcome: Outcome; sentAt: number; ackedAt?: number };

/** The money limits (packages/protocol `LIMIT_KEYS` without the session time limit). */
export type MoneyLimitKey = `${'deposit' | 'loss'}_${'day' | 'week' | 'month'}`;

export interface History {
  players: { username: string; machineId: number }[];
  ops: HistoryOp[];
  /** A memory the run overwrote on purpose (--damage-memory): malfunctions there are expected from then on. */
  damaged: { machineId: number; at: number } | null;
  /** HAND_PAY_LIMIT of the run (cents): every win at or above it must wait as a hand pay; absent: no hand pays. */
  handPayLimitCents?: number;
}

/** A ledger operation after the run started, with what it did to its player's wallet parts. */
export interface LedgerOp {
  id: number;
  kind: string;
  player: string | null;
  key: string | null;
  amountCents: number;
  sessionId: string | null;
  machineId: number | null;
  /** When it was booked (the database's clock, the same host as the cabinets'). */
  atMs: number;
  /** Change of each wallet part of `player` (a cash in is negative, a cash out positive). */
  parts: Parts;
}

export interface GameRecord {
  machineId: number;
  player: string | null;
  sessionId: string | null;
  gameId: string;
  startedMs: number;
  /**
   * When the server recorded it (its transaction's time, the database's clock): a hand pay's lock
   * starts there (the record takes the session row first, a cash in after it sees the hand pay).
   */
  recordedMs: number;
  /** The client's spin command id (the server sends `<session>:<command>` to the cabinet); null for autoplay and free spins. */
  commandId: string | null;
  betCents: number;
  winCents: number;
  freeSpin: boolean;
  jackpotHit: boolean;
}

/** A cash out or hand pay command of the outbox: what the machine paid off its meter. */
export interface PayoutCommand {
  machineId: number;
  player: string;
  commandId: string;
  type: string;
  status: string;
  amountCents: number | null;
}

export interface Meters {
  creditsCents: number;
  coinInCents: number;
  coinOutCents: number;
  cashInCents: number;
  cashOutCents: number;
  gamesPlayed: number;
}
export const METER_NAMES: readonly (keyof Meters)[] = ['creditsCents', 'coinInCents', 'coinOutCents', 'cashInCents', 'cashOutCents', 'gamesPlayed'];

/** A row of the hand pay queue: a win held by the house until staff approve it. */
export interface HandPayRow {
  id: number;
  machineId: number;
  player: string;
  amountCents: number;
  status: string;
  /** When the win was held (its cash out booked). */
  requestedMs: number;
  paidMs: number | null;
}

/** A cabinet's critical memory as its file holds it; null when the file is missing or unreadable. */
export interface MemoryReading {
  memoryId: string;
  meters: Meters;
  /** Games the cabinet played and the server never acknowledged storing. */
  unackedGameIds: string[];
}

export interface Malfunction {
  id: number;
  at: number;
  machineId: number;
  sessionId: string | null;
  reason: string;
  recordsCents: number;
  machineCents: number;
  paidCents: number | null;
  missingGames: string[];
}

/** The product's state after the run: the ledger, every wallet part, the game records, the cabinets' memories. */
export interface Observed {
  wallets: Record<string, Parts>;
  ledger: LedgerOp[];
  records: GameRecord[];
  payouts: PayoutCommand[];
  memories: Record<number, MemoryReading | null>;
  malfunctions: Malfunction[];
  handPays: HandPayRow[];
  /** What the books' own invariants (every operation sums to zero, stored balances = entries, …) found. */
  books: string[];
}

/** The state before the workload started. */
export interface Baseline {
  wallets: Record<string, Parts>;
  memories: Record<number, MemoryReading | null>;
  /** Ledger operations up to this id happened before the run (the seed's deposits). */
  lastOperationId: number;
}

export const emptyParts = (): Parts => ({ cash: 0, credit: 0, bonus: 0, discount: 0 });
export const zeroMeters = (): Meters => ({ creditsCents: 0, coinInCents: 0, coinOutCents: 0, cashInCents: 0, cashOutCents: 0, gamesPlayed: 0 });
