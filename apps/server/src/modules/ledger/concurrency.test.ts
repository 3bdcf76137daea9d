/**
 * Money under concurrency (issue 2, "Money"): no double spend, one effect per idempotency key, and a
 * random mix of every kind of move from many clients that leaves the ledger balanced, no account
 * negative, every acknowledged operation recorded exactly once and every wallet where the
 * acknowledgements say it must be.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionCode, Code } from '@reel/protocol';
import { createTestApp, writeSettings, type TestApp } from '../../../test/helper.js';
import { createPool, withTransaction, type Db } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import { createPlayer } from '../player/players.js';
import { auditLedger, OperationKind, walletBalance, type MoveRequest } from './ledger.js';
import { transfer, type LedgerDeps } from './ledger-service.js';

const CLIENTS = 40;
/**
 * The mix runs until this many moves were acknowledged (a volume, not a time: a loaded machine takes
 * longer instead of testing less), within a generous safety limit.
 */
const MIX_ACKNOWLEDGED = 1_000;
const MIX_LIMIT_MS = 120_000;

let t: TestApp;
let pool: Db;
let deps: LedgerDeps;
let machineIds: number[];

beforeAll(async () => {
  t = await createTestApp((config) => {
    config.promotions = {
      discountCents: 300,
      bonusCents: 200,
      cooldownMs: 150,
      wagerMultiplier: 1,
    };
  });
  // The discount only below 200.00 (DISCOUNT_MIN is in whole currency units).
  writeSettings(t.ctx, { DISCOUNT_MIN: 200, DISCOUNT_BALANCE_CHECK: true });
  // Enough connections that every client holds one; the app's own pool serves the HTTP routes.
  pool = createPool(t.databaseUrl, CLIENTS + 10);
  deps = { db: pool, bus: t.ctx.bus };
  machineIds = (await pool.query<{ id: number }>('SELECT id FROM machines ORDER BY id')).rows.map(
    (r) => r.id,
  );
});
afterAll(async () => {
  await pool.end();
  await t.close();
});

let counter = 0;
async function newPlayer(depositCents: number) {
  counter += 1;
  const username = `conc${counter}`;
  const id = await withTransaction(pool, (tx) =>
    createPlayer(tx, { username, email: `${username}@test.local`, password: 'secret123' }),
  );
  if (depositCents > 0) await transfer(deps, deposit(id, depositCents, `setup-${id}`));
  return { id, username };
}

const key = () => crypto.randomUUID();

function deposit(playerId: number, amountCents: number, idempotencyKey: string): MoveRequest {
  return {
    kind: OperationKind.Deposit,
    actionCode: ActionCode.Deposit,
    playerId,
    idempotencyKey,
    from: { kind: 'cashier' },
    to: { kind: 'wallet', playerId, part: 'cash' },
    amountCents,
  };
}
function withdraw(playerId: number, amountCents: number, idempotencyKey: string): MoveRequest {
  return {
    kind: OperationKind.Withdraw,
    actionCode: ActionCode.Withdraw,
    playerId,
    idempotencyKey,
    from: { kind: 'wallet', playerId, part: 'cash' },
    to: { kind: 'cashier' },
    amountCents,
  };
}
function cashIn(
  playerId: number,
  machineId: number,
  amountCents: number,
  idempotencyKey?: string,
): MoveRequest {
  return {
    kind: OperationKind.CashIn,
    actionCode: ActionCode.CashIn,
    playerId,
    machineId,
    idempotencyKey,
    from: { kind: 'wallet', playerId },
    to: { kind: 'machine', machineId },
    amountCents,
  };
}
function cashOut(
  playerId: number,
  machineId: number,
  amountCents: number,
  idempotencyKey: string,
): MoveRequest {
  return {
    kind: OperationKind.CashOut,
    actionCode: ActionCode.CashOut,
    playerId,
    machineId,
    idempotencyKey,
    from: { kind: 'machine', machineId },
    to: { kind: 'wallet', playerId, part: 'cash' },
    amountCents,
  };
}

const codeOf = (error: unknown) => (error instanceof AppError ? error.code : -1);

describe('concurrent money', () => {
  it('lets exactly one of 50 parallel 100-cent spends of a 100-cent wallet through', async () => {
    const player = await newPlayer(100);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => transfer(deps, cashIn(player.id, machineIds[0]!, 100, key()))),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [codeOf(r.reason)] : []));
    expect(ok).toHaveLength(1);
    expect(refused).toEqual(Array(49).fill(Code.InsufficientBalance));
    expect((await walletBalance(pool, player.id)).balance).toBe(0);
    const ops = await pool.query(
      "SELECT 1 FROM ledger_operations WHERE player_id = $1 AND kind = 'cash_in'",
      [player.id],
    );
    expect(ops.rowCount).toBe(1);
  });

  it('gives the same idempotency key sent 10 times at once exactly one effect', async () => {
    const player = await newPlayer(1_000);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => transfer(deps, cashIn(player.id, machineIds[1]!, 250, 'same-key'))),
    );
    expect(new Set(results.map((r) => r.operationId)).size).toBe(1);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect((await walletBalance(pool, player.id)).balance).toBe(750);
    const entries = await pool.query('SELECT 1 FROM ledger_entries WHERE operation_id = $1', [
      results[0]!.operationId,
    ]);
    expect(entries.rowCount).toBe(2);
  });

  it('keeps every invariant under a random mix of moves from many clients', { timeout: MIX_LIMIT_MS + 30_000 }, async () => {
    const players = await Promise.all(Array.from({ length: 10 }, () => newPlayer(5_000)));
    const tokens = new Map<number, string>();
    for (const player of players) tokens.set(player.id, await t.login(player.username, 'secret123'));
    const startCents = new Map(players.map((p) => [p.id, 5_000]));

    interface Ack {
      playerId: number;
      key: string;
      /** Effect on the player's wallet in cents. */
      walletDeltaCents: number;
    }
    const acks: Ack[] = [];
    const outcomes = new Map<string, number>();
    const count = (name: string) => outcomes.set(name, (outcomes.get(name) ?? 0) + 1);
    const random = (n: number) => crypto.randomInt(n);
    const deadline = Date.now() + MIX_LIMIT_MS;

    async function client() {
      while (acks.length < MIX_ACKNOWLEDGED && Date.now() < deadline) {
        const player = players[random(players.length)]!;
        const machineId = machineIds[random(machineIds.length)]!;
        const amountCents = 1 + random(800);
        const k = key();
        const choice = random(6);
        try {
          if (choice === 0) {
            await transfer(deps, deposit(player.id, amountCents, k));
            acks.push({ playerId: player.id, key: k, walletDeltaCents: amountCents });
            count('deposit');
          } else if (choice === 1) {
            await transfer(deps, withdraw(player.id, amountCents, k));
            acks.push({ playerId: player.id, key: k, walletDeltaCents: -amountCents });
            count('withdraw');
          } else if (choice === 2) {
            await transfer(deps, cashIn(player.id, machineId, amountCents, k));
            acks.push({ playerId: player.id, key: k, walletDeltaCents: -amountCents });
            count('cash in');
          } else if (choice === 3) {
            await transfer(deps, cashOut(player.id, machineId, amountCents, k));
            acks.push({ playerId: player.id, key: k, walletDeltaCents: amountCents });
            count('cash out');
          } else {
            const kind = choice === 4 ? 'discount' : 'bonus';
            const response = await t.app.inject({
              method: 'GET',
              url: `/api/player/${kind}`,
              headers: { ...t.auth(tokens.get(player.id)!), 'idempotency-key': k },
            });
            const body = response.json<{ code: number; Params?: { amount: number } }>();
            if (body.code !== Code.Success) throw new AppError(body.code, response.statusCode);
            acks.push({ playerId: player.id, key: k, walletDeltaCents: body.Params!.amount });
            count(kind);
            // A client that lost the answer retries with the same key: same answer, no new money.
            if (random(4) === 0) {
              const retry = await t.app.inject({
                method: 'GET',
                url: `/api/player/${kind}`,
                headers: { ...t.auth(tokens.get(player.id)!), 'idempotency-key': k },
              });
              expect(retry.json()).toEqual(body);
            }
          }
          // Retrying an acknowledged move must not move money again.
          if (choice <= 3 && random(8) === 0) {
            const request = [deposit, withdraw][choice] ?? null;
            const replay = request
              ? await transfer(deps, request(player.id, amountCents, k))
              : await transfer(deps, (choice === 2 ? cashIn : cashOut)(player.id, machineId, amountCents, k));
            expect(replay.replayed).toBe(true);
          }
        } catch (error) {
          const code = codeOf(error);
          // Only business refusals are acceptable; anything else fails the test.
          if (
            ![Code.InsufficientBalance, Code.DiscountCooldown, Code.DiscountBalanceTooHigh].includes(
              code as never,
            )
          )
            throw error;
          count(`refused ${code}`);
        }
      }
    }

    await Promise.all(Array.from({ length: CLIENTS }, client));
    expect(acks.length).toBeGreaterThanOrEqual(MIX_ACKNOWLEDGED);
    for (const name of ['deposit', 'withdraw', 'cash in', 'cash out', 'discount', 'bonus'])
      expect(outcomes.get(name), name).toBeGreaterThan(0);

    const audit = await auditLedger(pool);
    expect(audit).toMatchObject({ ok: true, total: 0, negative: 0 });
    const negative = await pool.query('SELECT id FROM accounts WHERE balance < 0');
    expect(negative.rowCount).toBe(0);

    // Each acknowledged operation exactly once, and no operation that nobody acknowledged.
    const playerIds = players.map((p) => p.id);
    const recorded = await pool.query<{ player_id: number; idempotency_key: string; n: number }>(
      `SELECT player_id, idempotency_key, count(*)::int AS n FROM ledger_operations
        WHERE player_id = ANY($1::int[]) AND idempotency_key NOT LIKE 'setup-%'
        GROUP BY player_id, idempotency_key`,
      [playerIds],
    );
    const recordedKeys = new Map(recorded.rows.map((r) => [`${r.player_id}/${r.idempotency_key}`, r.n]));
    for (const ack of acks) expect(recordedKeys.get(`${ack.playerId}/${ack.key}`), ack.key).toBe(1);
    expect(recorded.rowCount).toBe(acks.length);

    for (const player of players) {
      const expected = acks
        .filter((a) => a.playerId === player.id)
        .reduce((sum, a) => sum + a.walletDeltaCents, startCents.get(player.id)!);
      expect((await walletBalance(pool, player.id)).balance, player.username).toBe(expected);
    }
    console.log(`[concurrency] ${acks.length} acknowledged operations:`, Object.fromEntries(outcomes));
  });
});
