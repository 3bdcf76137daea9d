/**
 * Ledger throughput: money moves per second with 50 concurrent clients on a throw-away embedded
 * PostgreSQL, beside a raw baseline in the same run: the same number of
 * `BEGIN; SELECT ... FOR UPDATE; UPDATE; INSERT; COMMIT` with plain pg and no application code.
 * Goal: ours >= 60% of raw. Usage: tsx apps/server/bench/ledger.ts [--moves N] [--clients N]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { ActionCode } from '@reel/protocol';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres/embedded.js';
import { createPool, withTransaction } from '../src/db/pool.js';
import { migrate } from '../src/db/migrate.js';
import { createLocalBus } from '../src/lib/bus.js';
import { auditLedger, OperationKind } from '../src/modules/ledger/ledger.js';
import { transfer } from '../src/modules/ledger/ledger-service.js';
import { createBrand, createMachine } from '../src/modules/machines/catalog.js';
import { benchDir, percentile, printTable } from './bench-kit.js';

const { values } = parseArgs({
  options: {
    moves: { type: 'string', default: '5000' },
    clients: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '2' },
  },
});
const MOVES = Number(values.moves);
const CLIENTS = Number(values.clients);
const ROUNDS = Number(values.rounds);
const GOAL = 0.6;

interface RunResult {
  name: string;
  moves: number;
  seconds: number;
  latenciesMs: number[];
}

/** Runs `moves` operations spread over `clients` workers; worker i always works on its own accounts. */
async function drive(
  name: string,
  moves: number,
  clients: number,
  op: (client: number, n: number) => Promise<void>,
): Promise<RunResult> {
  let next = 0;
  const latenciesMs: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let n = next++; n < moves; n = next++) {
        const t0 = performance.now();
        await op(client, n);
        latenciesMs.push(performance.now() - t0);
      }
    }),
  );
  return { name, moves, seconds: (performance.now() - started) / 1000, latenciesMs };
}


function row(result: RunResult) {
  const sorted = [...result.latenciesMs].sort((a, b) => a - b);
  return {
    run: result.name,
    moves: String(result.moves),
    seconds: result.seconds.toFixed(2),
    'moves/s': (result.moves / result.seconds).toFixed(0),
    'p50 ms': percentile(sorted, 50).toFixed(2),
    'p99 ms': percentile(sorted, 99).toFixed(2),
  };
}


const dir = benchDir('ledger');
console.log(`Starting an embedded PostgreSQL in ${dir} ...`);
const embedded = await startEmbeddedPostgres(path.join(dir, 'pg'));
try {
  const db = createPool(embedded.url, CLIENTS);
  await migrate(db);

  // Fixtures: one player and one machine per client, so clients never wait on each other's rows
  // (both runs measure the cost of a move, not queueing on one hot account).
  const fundCents = MOVES * ROUNDS * 10;
  const players: number[] = [];
  const machines: number[] = [];
  await withTransaction(db, async (tx) => {
    const brandId = await createBrand(tx, { name: 'Bench', jackpotSeedsCents: [100_000] });
    for (let i = 0; i < CLIENTS; i++) {
      // A fixed placeholder hash: nobody signs in here, and hashing 50 passwords would only slow set-up.
      const { rows } = await tx.query<{ id: number }>(
        "INSERT INTO players (username, email, password_hash) VALUES ($1, $2, 'x') RETURNING id",
        [`bench${i}`, `bench${i}@bench.local`],
      );
      const playerId = rows[0]!.id;
      await tx.query(
        "INSERT INTO accounts (kind, part, player_id) SELECT 'wallet', part, $1 FROM unnest(ARRAY['cash','credit','bonus','discount']) AS part",
        [playerId],
      );
      players.push(playerId);
      machines.push((await createMachine(tx, { brandId, name: `Bench ${i}` })).id);
    }
  });
  for (const playerId of players) {
    await transfer(
      { db },
      {
        kind: OperationKind.Deposit,
        actionCode: ActionCode.Deposit,
        playerId,
        from: { kind: 'cashier' },
        to: { kind: 'wallet', playerId, part: 'cash' },
        amountCents: fundCents,
      },
    );
  }
  await db.query(`
    CREATE TABLE raw_accounts (id bigserial PRIMARY KEY, balance bigint NOT NULL CHECK (balance >= 0));
    CREATE TABLE raw_entries (id bigserial PRIMARY KEY, account_id bigint NOT NULL REFERENCES raw_accounts(id), amount_cents bigint NOT NULL);
    CREATE INDEX raw_entries_account ON raw_entries (account_id);`);
  await db.query('INSERT INTO raw_accounts (balance) SELECT $1 FROM generate_series(1, $2)', [
    fundCents,
    CLIENTS,
  ]);

  // The raw baseline talks to PostgreSQL through plain pg with a pool of the same size.
  const raw = new pg.Pool({ connectionString: embedded.url, max: CLIENTS });
  const rawMove = async (client: number) => {
    const c = await raw.connect();
    try {
      await c.query('BEGIN');
      await c.query('SELECT balance FROM raw_accounts WHERE id = $1 FOR UPDATE', [client + 1]);
      await c.query('UPDATE raw_accounts SET balance = balance - 1 WHERE id = $1', [client + 1]);
      await c.query('INSERT INTO raw_entries (account_id, amount_cents) VALUES ($1, -1)', [client + 1]);
      await c.query('COMMIT');
    } catch (error) {
      await c.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      c.release();
    }
  };

  // Ours: a cash-in through the real service (idempotency key, locks, checks, double entry, bus publish).
  const bus = createLocalBus();
  let round = 0;
  const ourMove = async (client: number, n: number) => {
    const playerId = players[client]!;
    const machineId = machines[client]!;
    await transfer(
      { db, bus },
      {
        kind: OperationKind.CashIn,
        actionCode: ActionCode.CashIn,
        playerId,
        machineId,
        idempotencyKey: `bench-${round}-${n}`,
        from: { kind: 'wallet', playerId },
        to: { kind: 'machine', machineId },
        amountCents: 1,
      },
    );
  };

  // Warm both paths (connections, plans), then alternate so neither gets the warmer machine.
  await drive('warm-up raw', CLIENTS * 4, CLIENTS, rawMove);
  round = -1;
  await drive('warm-up ours', CLIENTS * 4, CLIENTS, ourMove);
  const results: RunResult[] = [];
  for (round = 0; round < ROUNDS; round++) {
    results.push(await drive(`raw SQL #${round + 1}`, MOVES, CLIENTS, rawMove));
    results.push(await drive(`ledger #${round + 1}`, MOVES, CLIENTS, ourMove));
  }
  const total = (prefix: string) => {
    const runs = results.filter((r) => r.name.startsWith(prefix));
    return {
      name: `${prefix} (all)`,
      moves: runs.reduce((s, r) => s + r.moves, 0),
      seconds: runs.reduce((s, r) => s + r.seconds, 0),
      latenciesMs: runs.flatMap((r) => r.latenciesMs),
    };
  };
  const rawTotal = total('raw SQL');
  const ourTotal = total('ledger');

  const version = (await db.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
  console.log('');
  console.log(
    `Ledger benchmark: ${CLIENTS} concurrent clients, ${MOVES} moves per run, ${ROUNDS} rounds; PostgreSQL ${version} (embedded, fsync on), ${os.cpus().length} CPUs`,
  );
  console.log('raw SQL = BEGIN; SELECT ... FOR UPDATE; UPDATE; INSERT; COMMIT (plain pg)');
  console.log(
    'ledger  = wallet -> machine cash-in through the ledger service (idempotency key, 2 accounts locked, double entry, balance publish)',
  );
  console.log('');
  printTable([...results, rawTotal, ourTotal].map(row));
  const ratio = ourTotal.moves / ourTotal.seconds / (rawTotal.moves / rawTotal.seconds);
  console.log('');
  console.log(
    `ours / raw = ${(ratio * 100).toFixed(1)}% (goal >= ${GOAL * 100}%): ${ratio >= GOAL ? 'PASS' : 'BELOW GOAL'}`,
  );

  const audit = await auditLedger(db);
  console.log(`ledger audit after the run: ${audit.ok ? 'ok' : `NOT OK ${JSON.stringify(audit)}`}`);
  await raw.end();
  await db.end();
  if (!audit.ok) process.exitCode = 1;
} finally {
  await embedded.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
// Explicit, so an open handle (a pool, a socket) cannot keep the process or hide the result.
process.exit(process.exitCode ?? 0);
