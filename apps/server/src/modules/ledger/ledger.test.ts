import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionCode, Code } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';
import { withTransaction } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import { Topic } from '../../lib/bus.js';
import { createPlayer } from '../player/players.js';
import {
  auditLedger,
  machineCredits,
  moveInTransaction,
  OperationKind,
  walletBalance,
  type MoveRequest,
} from './ledger.js';
import { transfer, withMoney } from './ledger-service.js';

let t: TestApp;
let machineId: number;
beforeAll(async () => {
  t = await createTestApp();
  const { rows } = await t.ctx.db.query<{ id: number }>('SELECT id FROM machines ORDER BY id LIMIT 1');
  machineId = rows[0]!.id;
});
afterAll(() => t.close());

let playerCounter = 0;
async function newPlayer() {
  playerCounter += 1;
  const username = `ledger${playerCounter}`;
  return withTransaction(t.ctx.db, (tx) =>
    createPlayer(tx, { username, email: `${username}@test.local`, password: 'secret123' }),
  );
}

const fund = (playerId: number, part: 'cash' | 'credit' | 'bonus' | 'discount', amountCents: number) =>
  transfer(t.ctx, {
    kind:
      part === 'cash'
        ? OperationKind.Deposit
        : part === 'discount'
          ? OperationKind.Discount
          : OperationKind.Bonus,
    actionCode: part === 'cash' ? ActionCode.Deposit : undefined,
    playerId,
    from: { kind: part === 'cash' ? 'cashier' : 'promotions' },
    to: { kind: 'wallet', playerId, part },
    amountCents,
  });

const cashIn = (playerId: number, amountCents: number, idempotencyKey?: string): MoveRequest => ({
  kind: OperationKind.CashIn,
  actionCode: ActionCode.CashIn,
  playerId,
  machineId,
  idempotencyKey,
  from: { kind: 'wallet', playerId },
  to: { kind: 'machine', machineId },
  amountCents,
});

async function entriesOf(operationId: number) {
  const { rows } = await t.ctx.db.query<{ kind: string; part: string | null; amount_cents: number }>(
    `SELECT a.kind, a.part, e.amount_cents FROM ledger_entries e JOIN accounts a ON a.id = e.account_id
      WHERE e.operation_id = $1 ORDER BY e.id`,
    [operationId],
  );
  return rows;
}

async function expectAppError(promise: Promise<unknown>, code: number) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
}

describe('moving money', () => {
  it('spends the wallet parts in the order discount, bonus, credit, cash', async () => {
    const playerId = await newPlayer();
    await fund(playerId, 'cash', 500);
    await fund(playerId, 'credit', 300);
    await fund(playerId, 'bonus', 200);
    await fund(playerId, 'discount', 100);
    expect(await walletBalance(t.ctx.db, playerId)).toEqual({
      balance: 1100,
      cash: 500,
      credit: 300,
      bonus: 200,
      discount: 100,
    });

    const first = await transfer(t.ctx, cashIn(playerId, 250));
    expect(await entriesOf(first.operationId)).toEqual([
      { kind: 'wallet', part: 'discount', amount_cents: -100 },
      { kind: 'wallet', part: 'bonus', amount_cents: -150 },
      { kind: 'machine', part: null, amount_cents: 250 },
    ]);
    const second = await transfer(t.ctx, cashIn(playerId, 600));
    expect(await entriesOf(second.operationId)).toEqual([
      { kind: 'wallet', part: 'bonus', amount_cents: -50 },
      { kind: 'wallet', part: 'credit', amount_cents: -300 },
      { kind: 'wallet', part: 'cash', amount_cents: -250 },
      { kind: 'machine', part: null, amount_cents: 600 },
    ]);
    expect(second.wallets.get(playerId)).toEqual({
      balance: 250,
      cash: 250,
      credit: 0,
      bonus: 0,
      discount: 0,
    });
    expect(await walletBalance(t.ctx.db, playerId)).toEqual({
      balance: 250,
      cash: 250,
      credit: 0,
      bonus: 0,
      discount: 0,
    });
  });

  it('moves from the machine meter back to the cash part', async () => {
    const playerId = await newPlayer();
    await fund(playerId, 'cash', 1000);
    await transfer(t.ctx, cashIn(playerId, 700));
    const before = await machineCredits(t.ctx.db, machineId);
    await transfer(t.ctx, {
      kind: OperationKind.CashOut,
      actionCode: ActionCode.CashOut,
      playerId,
      machineId,
      from: { kind: 'machine', machineId },
      to: { kind: 'wallet', playerId },
      amountCents: 700,
    });
    expect(await machineCredits(t.ctx.db, machineId)).toBe(before - 700);
    expect((await walletBalance(t.ctx.db, playerId)).cash).toBe(1000);
  });

  it('refuses to overspend with 40201 and writes nothing', async () => {
    const playerId = await newPlayer();
    await fund(playerId, 'cash', 100);
    await fund(playerId, 'bonus', 50);
    const count = async () =>
      (
        await t.ctx.db.query<{ n: number }>(
          'SELECT (SELECT count(*) FROM ledger_operations) + (SELECT count(*) FROM ledger_entries) AS n',
        )
      ).rows[0]!.n;
    const before = await count();
    await expectAppError(transfer(t.ctx, cashIn(playerId, 151, 'too-much')), Code.InsufficientBalance);
    expect(await count()).toBe(before);
    expect(await walletBalance(t.ctx.db, playerId)).toMatchObject({ balance: 150, cash: 100, bonus: 50 });
    const keyed = await t.ctx.db.query("SELECT 1 FROM ledger_operations WHERE idempotency_key = 'too-much'");
    expect(keyed.rowCount).toBe(0);
  });

  it('rejects amounts that are not positive integer cents', async () => {
    const playerId = await newPlayer();
    for (const amountCents of [0, -5, 1.5, Number.NaN, 2 ** 60]) {
      await expectAppError(transfer(t.ctx, cashIn(playerId, amountCents)), Code.InvalidRequest);
    }
  });

  it('replays a repeated idempotency key and answers 40900 for a different request with the same key', async () => {
    const playerId = await newPlayer();
    await fund(playerId, 'cash', 1000);
    const first = await transfer(t.ctx, cashIn(playerId, 300, 'key-1'));
    const again = await transfer(t.ctx, cashIn(playerId, 300, 'key-1'));
    expect(first.replayed).toBe(false);
    expect(again).toMatchObject({ operationId: first.operationId, replayed: true, amountCents: 300 });
    expect((await walletBalance(t.ctx.db, playerId)).balance).toBe(700);
    await expectAppError(transfer(t.ctx, cashIn(playerId, 301, 'key-1')), Code.IdempotencyConflict);
    // The key is scoped to the player: another player may use the same key.
    const other = await newPlayer();
    await fund(other, 'cash', 300);
    expect((await transfer(t.ctx, cashIn(other, 300, 'key-1'))).replayed).toBe(false);
  });

  it('keeps the ledger append-only', async () => {
    const playerId = await newPlayer();
    const { operationId } = await fund(playerId, 'cash', 100);
    await expect(
      t.ctx.db.query('UPDATE ledger_entries SET amount_cents = 1 WHERE operation_id = $1', [operationId]),
    ).rejects.toThrow(/append-only/);
    await expect(
      t.ctx.db.query('DELETE FROM ledger_entries WHERE operation_id = $1', [operationId]),
    ).rejects.toThrow(/append-only/);
    await expect(
      t.ctx.db.query('DELETE FROM ledger_operations WHERE id = $1', [operationId]),
    ).rejects.toThrow(/append-only/);
    // The stored balance cannot go below zero even by a direct write.
    await expect(
      t.ctx.db.query("UPDATE accounts SET balance = -1 WHERE player_id = $1 AND part = 'cash'", [playerId]),
    ).rejects.toThrow(/check/i);
  });

  it('keeps a move that touches one account twice consistent', async () => {
    const playerId = await newPlayer();
    await fund(playerId, 'cash', 100);
    await fund(playerId, 'bonus', 40);
    // Turning the whole wallet into cash debits the cash part and credits it in the same operation.
    await transfer(t.ctx, {
      kind: OperationKind.Bonus,
      playerId,
      from: { kind: 'wallet', playerId },
      to: { kind: 'wallet', playerId, part: 'cash' },
      amountCents: 140,
    });
    expect(await walletBalance(t.ctx.db, playerId)).toMatchObject({ balance: 140, cash: 140, bonus: 0 });
    expect((await auditLedger(t.ctx.db)).ok).toBe(true);
  });

  it('audits the whole ledger as balanced', async () => {
    const audit = await auditLedger(t.ctx.db);
    expect(audit).toEqual({ total: 0, unbalanced: 0, drifted: 0, negative: 0, ok: true });
  });
});

describe('balance notifications', () => {
  it('publishes the new balance only after the commit, and nothing for a failed move', async () => {
    const playerId = await newPlayer();
    const seen: { message: unknown; committed: number }[] = [];
    const pending: Promise<void>[] = [];
    const unsubscribe = t.ctx.bus.subscribe(Topic.player(playerId), (message) => {
      // Read through another connection: the money must already be visible to everyone.
      pending.push(
        walletBalance(t.ctx.db, playerId).then((wallet) => {
          seen.push({ message, committed: wallet.balance });
        }),
      );
    });
    await fund(playerId, 'cash', 400);
    await expectAppError(transfer(t.ctx, cashIn(playerId, 401)), Code.InsufficientBalance);
    await transfer(t.ctx, cashIn(playerId, 150));
    await Promise.all(pending);
    unsubscribe();
    expect(seen).toEqual([
      {
        message: { event: 'balance', data: { balance: 400, cash: 400, credit: 0, bonus: 0, discount: 0 } },
        committed: 400,
      },
      {
        message: { event: 'balance', data: { balance: 250, cash: 250, credit: 0, bonus: 0, discount: 0 } },
        committed: 250,
      },
    ]);
  });

  it('publishes nothing when the transaction around the move rolls back', async () => {
    const playerId = await newPlayer();
    const seen: unknown[] = [];
    const unsubscribe = t.ctx.bus.subscribe(Topic.player(playerId), (message) => seen.push(message));
    await expect(
      withMoney(t.ctx, async (_tx, move) => {
        await move({
          kind: OperationKind.Deposit,
          playerId,
          from: { kind: 'cashier' },
          to: { kind: 'wallet', playerId },
          amountCents: 10,
        });
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    unsubscribe();
    expect(seen).toEqual([]);
    expect((await walletBalance(t.ctx.db, playerId)).balance).toBe(0);
  });

  it('can run several moves in one transaction', async () => {
    const playerId = await newPlayer();
    const result = await withTransaction(t.ctx.db, async (tx) => {
      await moveInTransaction(tx, {
        kind: OperationKind.Deposit,
        playerId,
        from: { kind: 'cashier' },
        to: { kind: 'wallet', playerId },
        amountCents: 90,
      });
      return moveInTransaction(tx, cashIn(playerId, 90));
    });
    expect(result.wallets.get(playerId)?.balance).toBe(0);
  });
});
