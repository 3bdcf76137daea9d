/**
 * The players' money against the game records (the ledger audit's second half).
 *
 * For every player: wallet + credits on machines (open sessions, from the records) + hand pays the
 * house holds for them until staff approve (hand_pays waiting) must equal what
 * came from outside play (deposits − withdrawals, promotions, jackpots) plus the results of every
 * recorded game cycle of their sessions (wins − bets) plus what malfunction settlements paid above
 * the records. A cash out that booked missing credits as a loss, or any money that moved without a
 * recorded game, makes the player show up here and the audit fail.
 */
import type { Queryable } from '../../db/pool.js';
import { auditLedger, OperationKind } from './ledger.js';

interface PlayerMismatch {
  playerId: number;
  username: string;
  walletCents: number;
  onMachinesCents: number;
  /** Deposits − withdrawals + promotions + jackpots + recorded game results + settlement adjustments. */
  expectedCents: number;
}

/** Operations whose wallet side is money from outside play. */
const EXTERNAL_KINDS = [OperationKind.Deposit, OperationKind.Withdraw, OperationKind.Discount, OperationKind.Bonus, OperationKind.Jackpot];

export async function auditPlayers(db: Queryable): Promise<{ ok: boolean; mismatched: PlayerMismatch[] }> {
  const { rows } = await db.query<{ id: number; username: string; wallet: number; on_machines: number; expected: number }>(
    `WITH results AS (
       SELECT session_id, sum(win_cents - bet_cents)::bigint AS result FROM game_cycles WHERE session_id IS NOT NULL GROUP BY session_id
     ), play AS (
       SELECT s.player_id,
              sum(coalesce(r.result, 0))::bigint AS results,
              -- Open sessions: the credits the records give (a held session was paid out already).
              sum(CASE WHEN s.status <> 'closed' AND s.malfunction IS NULL
                       THEN s.cash_in_cents - s.cash_out_cents + coalesce(r.result, 0) ELSE 0 END)::bigint AS on_machines
         FROM slot_sessions s LEFT JOIN results r ON r.session_id = s.id
        GROUP BY s.player_id
     ), adjustments AS (
       SELECT s.player_id, sum(o.amount_cents)::bigint AS amount
         FROM ledger_operations o JOIN slot_sessions s ON s.id = o.session_id
        WHERE o.kind = $2
        GROUP BY s.player_id
     ), outside AS (
       SELECT a.player_id, sum(e.amount_cents)::bigint AS amount
         FROM ledger_entries e
         JOIN accounts a ON a.id = e.account_id AND a.kind = 'wallet'
         JOIN ledger_operations o ON o.id = e.operation_id
        WHERE o.kind = ANY($1::text[])
        GROUP BY a.player_id
     ), held AS (
       SELECT player_id, sum(amount_cents)::bigint AS amount FROM hand_pays WHERE status = 'waiting' GROUP BY player_id
     ), wallets AS (
       SELECT player_id, sum(balance)::bigint AS balance FROM accounts WHERE kind = 'wallet' GROUP BY player_id
     ), totals AS (
       SELECT p.id, p.username, coalesce(w.balance, 0)::bigint AS wallet,
              (coalesce(pl.on_machines, 0) + coalesce(h.amount, 0))::bigint AS on_machines,
              (coalesce(x.amount, 0) + coalesce(pl.results, 0) + coalesce(adj.amount, 0))::bigint AS expected
         FROM players p
         LEFT JOIN wallets w ON w.player_id = p.id
         LEFT JOIN play pl ON pl.player_id = p.id
         LEFT JOIN adjustments adj ON adj.player_id = p.id
         LEFT JOIN outside x ON x.player_id = p.id
         LEFT JOIN held h ON h.player_id = p.id
     )
     SELECT * FROM totals WHERE wallet + on_machines <> expected ORDER BY id`,
    [EXTERNAL_KINDS, OperationKind.MalfunctionAdjustment],
  );
  const mismatched = rows.map((r) => ({
    playerId: r.id,
    username: r.username,
    walletCents: r.wallet,
    onMachinesCents: r.on_machines,
    expectedCents: r.expected,
  }));
  return { ok: mismatched.length === 0, mismatched };
}

/**
 * `npm run operator -- audit` and the console's ledger audit: the ledger's own invariants, and every
 * player's money against the recorded game results. The malfunctions on record are counted too:
 * each was settled (its adjustment is in the players' figures), so they do not make the ledger
 * wrong, but each needs an operator's look.
 */
export async function auditMoney(db: Queryable) {
  const ledger = await auditLedger(db);
  const players = await auditPlayers(db);
  const malfunctions = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM malfunctions');
  return { ...ledger, players: players.mismatched, malfunctions: malfunctions.rows[0]!.n, ok: ledger.ok && players.ok };
}
