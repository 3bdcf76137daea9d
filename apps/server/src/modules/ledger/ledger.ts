/**
 * The double-entry ledger (docs/money.md). Every movement is one operation whose
 * entries sum to zero. Player wallets (four parts) and machine credit meters hold stored balances
 * that can never go negative (checked here and by a CHECK constraint); house, cashier and promotions
 * are counterparties whose balance is the sum of their entries, so they are never a hot row.
 * Accounts are locked in id order, so concurrent moves cannot deadlock or double-spend.
 */
import { createHash } from 'node:crypto';
import { Code, WALLET_SPEND_ORDER, type ActionCode, type WalletPart } from '@reel/protocol';
import type { Queryable, Tx } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';

export type AccountRef =
  | { kind: 'wallet'; playerId: number; part?: WalletPart }
  | { kind: 'machine'; machineId: number }
  | { kind: 'house' | 'cashier' | 'promotions' };

export const OperationKind = {
  Deposit: 'deposit',
  Withdraw: 'withdraw',
  CashIn: 'cash_in',
  CashOut: 'cash_out',
  HandPay: 'hand_pay',
  /** A hand pay's win taken off the machine into the house's keeping until staff approve it. */
  HandPayHold: 'hand_pay_hold',
  Jackpot: 'jackpot',
  Discount: 'discount',
  Bonus: 'bonus',
  /**
   * The game results recorded since the last cash out (the cycles' wins minus bets), settled between
   * the house and the machine at cash out. Never derived from what the machine paid.
   */
  GameResult: 'game_result',
  /**
   * A malfunction settlement paid more than the records give (the machine's own meter showed more
   * and is trusted): house → machine, counted by the audit as an explained result.
   */
  MalfunctionAdjustment: 'malfunction_adjustment',
} as const;
export type OperationKind = (typeof OperationKind)[keyof typeof OperationKind];

export interface MoveRequest {
  kind: OperationKind;
  actionCode?: ActionCode;
  /** The player the operation belongs to (history, idempotency scope). */
  playerId?: number;
  idempotencyKey?: string;
  from: AccountRef;
  to: AccountRef;
  amountCents: number;
  machineId?: number;
  sessionId?: string;
  tag?: string;
}

export interface MoveResult {
  operationId: number;
  amountCents: number;
  /** True when an earlier request with the same idempotency key already did this. */
  replayed: boolean;
  /**
   * Wallets of the players the move touched, as they stand after it (read under the row locks, so
   * callers can publish them without another query). Empty on a replay: nothing changed.
   */
  wallets: Map<number, WalletBalance>;
  /** What a move from a wallet took from each part (empty on a replay and for other sources). */
  drawn: Partial<Record<WalletPart, number>>;
}

export interface WalletBalance {
  balance: number;
  cash: number;
  credit: number;
  bonus: number;
  discount: number;
}
interface LockedAccount {
  id: number;
  kind: string;
  part: WalletPart | null;
  player_id: number | null;
  machine_id: number | null;
  balance: number;
}

const SYSTEM_KINDS = new Set(['house', 'cashier', 'promotions']);
const systemAccountIds = new Map<string, number>();

async function systemAccountId(tx: Queryable, kind: string): Promise<number> {
  const cached = systemAccountIds.get(kind);
  if (cached) return cached;
  const { rows } = await tx.query<{ id: number }>('SELECT id FROM accounts WHERE kind = $1', [kind]);
  if (!rows[0]) throw new Error(`system account ${kind} missing`);
  systemAccountIds.set(kind, rows[0].id);
  return rows[0].id;
}

/** Test hook: a fresh database has new ids. */
export function forgetSystemAccounts() {
  systemAccountIds.clear();
}

function requestHash(request: MoveRequest) {
  return createHash('sha256')
    .update(
      JSON.stringify([
        request.kind,
        request.from,
        request.to,
        request.amountCents,
        request.machineId ?? null,
      ]),
    )
    .digest('hex')
    .slice(0, 32);
}

/** Locks every stored-balance account the move touches, in id order, so moves cannot deadlock. */
async function lockAccounts(tx: Tx, refs: AccountRef[]): Promise<LockedAccount[]> {
  const playerIds = refs.flatMap((r) => (r.kind === 'wallet' ? [r.playerId] : []));
  const machineIds = refs.flatMap((r) => (r.kind === 'machine' ? [r.machineId] : []));
  if (!playerIds.length && !machineIds.length) return [];
  const { rows } = await tx.query<LockedAccount>({
    // Named: prepared once per connection, so the hot path skips parsing and planning.
    name: 'ledger_lock_accounts',
    text: `SELECT id, kind, part, player_id, machine_id, balance FROM accounts
            WHERE (kind = 'wallet' AND player_id = ANY($1::int[])) OR (kind = 'machine' AND machine_id = ANY($2::int[]))
            ORDER BY id FOR UPDATE`,
    values: [playerIds, machineIds],
  });
  return rows;
}

/**
 * All writes of a move in one statement (one round trip): the operation row claims the idempotency
 * key (a concurrent request with the same key waits on the unique index, then inserts nothing), and
 * the balance updates and entries are joined to it, so a repeated key writes nothing at all. The
 * accounts were locked by an earlier statement, so this statement's snapshot already sees their
 * latest balances.
 */
const WRITE_SQL = `
WITH op AS (
  INSERT INTO ledger_operations (player_id, idempotency_key, request_hash, kind, action_code, machine_id, session_id, amount_cents, tag)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
  ON CONFLICT (player_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
  RETURNING id
),
upd AS (
  UPDATE accounts a SET balance = a.balance + c.delta
    FROM unnest($10::bigint[], $11::bigint[]) AS c(id, delta), op
   WHERE a.id = c.id
),
ins AS (
  INSERT INTO ledger_entries (operation_id, account_id, amount_cents)
  SELECT op.id, e.account_id, e.amount FROM op, unnest($12::bigint[], $13::bigint[]) WITH ORDINALITY AS e(account_id, amount, n)
   ORDER BY e.n
)
SELECT id FROM op`;

/** A repeated idempotency key: the first operation's id, or 40900 when the request differs. */
async function existingOperation(
  tx: Tx,
  request: MoveRequest,
  hash: string | null,
): Promise<number | undefined> {
  const { rows } = await tx.query<{ id: number; request_hash: string }>(
    'SELECT id, request_hash FROM ledger_operations WHERE player_id = $1 AND idempotency_key = $2',
    [request.playerId, request.idempotencyKey],
  );
  const row = rows[0];
  if (!row) return undefined;
  if (row.request_hash !== hash) throw new AppError(Code.IdempotencyConflict, 409);
  return row.id;
}

/** Performs one move inside the caller's transaction. Throws 40201 when the source cannot pay. */
export async function moveInTransaction(tx: Tx, request: MoveRequest): Promise<MoveResult> {
  if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0) {
    throw new AppError(Code.InvalidRequest, 400, {}, 'amount must be a positive integer number of cents');
  }
  // The unique index treats NULL player ids as distinct, so a key without a player would never dedupe.
  if (request.idempotencyKey !== undefined && request.playerId === undefined) {
    throw new Error('an idempotency key needs the playerId that scopes it');
  }
  const hash = request.idempotencyKey ? requestHash(request) : null;
  const replay = (operationId: number): MoveResult => ({
    operationId,
    amountCents: request.amountCents,
    replayed: true,
    wallets: new Map(),
    drawn: {},
  });

  const locked = await lockAccounts(tx, [request.from, request.to]);
  const entries: { accountId: number; amount: number }[] = [];
  const find = (ref: AccountRef, part?: WalletPart) =>
    locked.find((a) =>
      ref.kind === 'wallet'
        ? a.kind === 'wallet' && a.player_id === ref.playerId && a.part === part
        : ref.kind === 'machine' && a.kind === 'machine' && a.machine_id === ref.machineId,
    );

  // A retry of a move that already happened must get its first answer even if the money has moved
  // on since (e.g. the wallet is now empty), so refusals check the key first.
  const refuse = async (error: AppError): Promise<MoveResult> => {
    const earlier = request.idempotencyKey ? await existingOperation(tx, request, hash) : undefined;
    if (earlier !== undefined) return replay(earlier);
    throw error;
  };

  // Debit the source.
  const { from, to, amountCents } = request;
  const drawn: Partial<Record<WalletPart, number>> = {};
  if (SYSTEM_KINDS.has(from.kind)) {
    entries.push({ accountId: await systemAccountId(tx, from.kind), amount: -amountCents });
  } else {
    const parts: (WalletPart | undefined)[] =
      from.kind === 'wallet' ? (from.part ? [from.part] : [...WALLET_SPEND_ORDER]) : [undefined];
    let remaining = amountCents;
    for (const part of parts) {
      const account = find(from, part);
      if (!account) return refuse(new AppError(Code.NotFound, 404, {}, `account ${from.kind} not found`));
      const take = Math.min(account.balance, remaining);
      if (take > 0) {
        entries.push({ accountId: account.id, amount: -take });
        remaining -= take;
        if (account.part) drawn[account.part] = take;
      }
      if (remaining === 0) break;
    }
    if (remaining > 0) return refuse(new AppError(Code.InsufficientBalance, 409));
  }

  // Credit the destination.
  if (SYSTEM_KINDS.has(to.kind)) {
    entries.push({ accountId: await systemAccountId(tx, to.kind), amount: amountCents });
  } else {
    const account = find(to, to.kind === 'wallet' ? (to.part ?? 'cash') : undefined);
    if (!account) return refuse(new AppError(Code.NotFound, 404, {}, `account ${to.kind} not found`));
    entries.push({ accountId: account.id, amount: amountCents });
  }

  // One delta per account: UPDATE ... FROM applies only one joined row per target row, so two
  // entries on the same account (e.g. wallet to its own cash part) would otherwise lose one.
  const deltas = new Map<number, number>();
  for (const account of locked) {
    const delta = entries.filter((e) => e.accountId === account.id).reduce((sum, e) => sum + e.amount, 0);
    if (delta !== 0) deltas.set(account.id, delta);
  }
  const { rows } = await tx.query<{ id: number }>({
    name: 'ledger_write_move',
    text: WRITE_SQL,
    values: [
      request.playerId ?? null,
      request.idempotencyKey ?? null,
      hash,
      request.kind,
      request.actionCode ?? null,
      request.machineId ?? null,
      request.sessionId ?? null,
      amountCents,
      request.tag ?? null,
      [...deltas.keys()],
      [...deltas.values()],
      entries.map((e) => e.accountId),
      entries.map((e) => e.amount),
    ],
  });
  if (!rows[0]) {
    const earlier = await existingOperation(tx, request, hash);
    // The key's row exists (the insert conflicted), so this cannot be undefined.
    if (earlier === undefined) throw new Error('idempotency key conflict without an operation');
    return replay(earlier);
  }

  const wallets = new Map<number, WalletBalance>();
  for (const account of locked) {
    if (account.kind !== 'wallet' || account.player_id === null || account.part === null) continue;
    const balance = account.balance + (deltas.get(account.id) ?? 0);
    const wallet = wallets.get(account.player_id) ?? {
      balance: 0,
      cash: 0,
      credit: 0,
      bonus: 0,
      discount: 0,
    };
    wallet[account.part] = balance;
    wallet.balance += balance;
    wallets.set(account.player_id, wallet);
  }
  return { operationId: rows[0].id, amountCents, replayed: false, wallets, drawn };
}

export async function walletBalance(db: Queryable, playerId: number): Promise<WalletBalance> {
  const { rows } = await db.query<{ part: WalletPart; balance: number }>(
    "SELECT part, balance FROM accounts WHERE kind = 'wallet' AND player_id = $1",
    [playerId],
  );
  const result: WalletBalance = { balance: 0, cash: 0, credit: 0, bonus: 0, discount: 0 };
  for (const row of rows) {
    result[row.part] = row.balance;
    result.balance += row.balance;
  }
  return result;
}

export async function machineCredits(db: Queryable, machineId: number): Promise<number> {
  const { rows } = await db.query<{ balance: number }>(
    "SELECT balance FROM accounts WHERE kind = 'machine' AND machine_id = $1",
    [machineId],
  );
  return rows[0]?.balance ?? 0;
}

/** Creates the four wallet part accounts of a new player (inside the creating transaction). */
export async function openWallet(tx: Queryable, playerId: number) {
  await tx.query(
    `INSERT INTO accounts (kind, part, player_id)
     SELECT 'wallet', part, $1 FROM unnest(ARRAY['cash', 'credit', 'bonus', 'discount']) AS part
     ON CONFLICT DO NOTHING`,
    [playerId],
  );
}

export async function openMachineAccount(tx: Queryable, machineId: number) {
  await tx.query("INSERT INTO accounts (kind, machine_id) VALUES ('machine', $1) ON CONFLICT DO NOTHING", [
    machineId,
  ]);
}

/**
 * The ledger's invariants, for tests, the operator and start-up checks: all entries sum to zero,
 * each operation balances, stored balances equal their entries, and none is negative.
 */
export async function auditLedger(db: Queryable) {
  const { rows } = await db.query<{ total: number; unbalanced: number; drifted: number; negative: number }>(`
    SELECT
      (SELECT coalesce(sum(amount_cents), 0) FROM ledger_entries)::bigint AS total,
      (SELECT count(*) FROM (SELECT operation_id FROM ledger_entries GROUP BY operation_id HAVING sum(amount_cents) <> 0) u)::int AS unbalanced,
      (SELECT count(*) FROM accounts a
         WHERE a.kind IN ('wallet', 'machine')
           AND a.balance <> coalesce((SELECT sum(amount_cents) FROM ledger_entries e WHERE e.account_id = a.id), 0))::int AS drifted,
      (SELECT count(*) FROM accounts WHERE balance < 0)::int AS negative`);
  const row = rows[0]!;
  return { ...row, ok: row.total === 0 && row.unbalanced === 0 && row.drifted === 0 && row.negative === 0 };
}
