/**
 * The way routes, the operator CLI and the game move money: one transaction per call, and the
 * players' new balances pushed on the bus only once the transaction has committed, so a client
 * never sees a balance that a rollback later takes back.
 */
import type { NotificationServerEvents } from '@reel/protocol';
import { withTransaction, type Db, type Tx } from '../../db/pool.js';
import { Topic, type Bus } from '../../lib/bus.js';
import { moveInTransaction, type MoveRequest, type MoveResult, type WalletBalance } from './ledger.js';

export interface LedgerDeps {
  db: Db;
  /** Optional so tools without listeners (the CLI, benchmarks) can use the same path. */
  bus?: Bus;
}

/** Moves inside `withMoney` work; each call is one ledger operation in the shared transaction. */
export type MoveFn = (request: MoveRequest) => Promise<MoveResult>;

function publishBalance(bus: Bus, playerId: number, wallet: WalletBalance) {
  const data: NotificationServerEvents['balance'] = {
    balance: wallet.balance,
    cash: wallet.cash,
    credit: wallet.credit,
    bonus: wallet.bonus,
    discount: wallet.discount,
  };
  bus.publish(Topic.player(playerId), { event: 'balance', data });
}

/**
 * Runs `work` in one transaction (retried on serialization failures by withTransaction) with a
 * `move` that records each touched wallet; after COMMIT the last state of every wallet is published.
 * Wallet rows stay locked until commit, so for one player the publishes follow the commit order.
 */
export async function withMoney<T>(deps: LedgerDeps, work: (tx: Tx, move: MoveFn) => Promise<T>): Promise<T> {
  let touched = new Map<number, WalletBalance>();
  const result = await withTransaction(deps.db, async (tx) => {
    // A retried attempt starts from scratch; what an aborted attempt saw must not be published.
    touched = new Map();
    const attempt = touched;
    return work(tx, async (request) => {
      const moved = await moveInTransaction(tx, request);
      for (const [playerId, wallet] of moved.wallets) attempt.set(playerId, wallet);
      return moved;
    });
  });
  if (deps.bus) for (const [playerId, wallet] of touched) publishBalance(deps.bus, playerId, wallet);
  return result;
}

/** One move in its own transaction. */
export function transfer(deps: LedgerDeps, request: MoveRequest): Promise<MoveResult> {
  return withMoney(deps, (_tx, move) => move(request));
}
