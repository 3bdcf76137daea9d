/**
 * Ledger throughput: money moves per second with 50 concurrent clients on a throw-away embedded
 * PostgreSQL, beside a raw baseline in the same run that executes the ledger's exact SQL.
 *
 * The baseline is captured, not written by hand: during warm-up one real cash-in per bench client
 * runs through a recording proxy around the pool's clients, which records every statement the
 * ledger sends (text, prepared-statement name, parameters, rows answered). The raw run then replays
 * each client's sequence with plain pg on its own pool, substituting only the idempotency key
 * (unique per move) and any id an earlier statement returned (by statement, row and column), and
 * checks that every replayed statement answers as many rows as the recorded one (so the same rows
 * are locked and the same rows written). What remains between raw and ours is the application:
 * validation, request hash, wallet arithmetic, the transaction helper and the balance publish.
 *
 * Rounds run in ABBA order (raw, ours, ours, raw, ...); each pair's ratio and the overall ratio
 * are printed. Verdict: ours ≥ GOAL of raw, every run complete, the ledger audit clean; exits 1 on a miss.
 * Usage: tsx apps/server/bench/ledger.ts [--moves N] [--clients N] [--rounds N]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { ActionCode } from '@reel/protocol';
import { Verdict } from '@reel/process';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres/embedded.js';
import { createPool, withTransaction, type Db } from '../src/db/pool.js';
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
    rounds: { type: 'string', default: '4' },
  },
});
const MOVES = Number(values.moves);
const CLIENTS = Number(values.clients);
const ROUNDS = Number(values.rounds);
/** Ours ≥ this share of the raw replay's moves per second (see docs/benchmarks.md for why). */
const GOAL = 0.8;
const MIN_ROUNDS = 2;

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

const movesPerSecond = (result: RunResult) => result.moves / result.seconds;

function row(result: RunResult) {
  const sorted = [...result.latenciesMs].sort((a, b) => a - b);
  return {
    run: result.name,
    moves: String(result.latenciesMs.length),
    seconds: result.seconds.toFixed(2),
    'moves/s': movesPerSecond(result).toFixed(0),
    'p50 ms': percentile(sorted, 50).toFixed(2),
    'p99 ms': percentile(sorted, 99).toFixed(2),
  };
}

/** One statement as the ledger sent it, and what it answered. */
interface Recorded {
  text: string;
  /** The prepared-statement name (pg prepares a named query once per connection). */
  name?: string;
  values?: unknown[];
  rows: Record<string, unknown>[];
  rowCount: number | null;
}

type QueryArg = string | { text: string; name?: string; values?: unknown[] };

/** The pool, with every query of its clients (and its own) recorded into `log`. */
function recordingPool(db: Db, log: Recorded[]): Db {
  const record = (target: { query: (...args: unknown[]) => Promise<pg.QueryResult> }) =>
    async (arg: QueryArg, params?: unknown[]) => {
      const config = typeof arg === 'string' ? { text: arg, values: params } : arg;
      const result = await target.query(arg, params);
      log.push({
        text: config.text,
        name: config.name,
        values: config.values ? structuredClone(config.values) : undefined,
        rows: result.rows as Record<string, unknown>[],
        rowCount: result.rowCount,
      });
      return result;
    };
  const wrap = <T extends object>(target: T, extra: (prop: string | symbol) => unknown): T =>
    new Proxy(target, {
      get(object, prop) {
        const replaced = extra(prop);
        if (replaced !== undefined) return replaced;
        const value: unknown = Reflect.get(object, prop, object);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
      },
    });
  return wrap(db, (prop) => {
    if (prop === 'query') return record(db as never);
    if (prop === 'connect')
      return async () => {
        const client = await db.connect();
        return wrap(client, (p) => (p === 'query' ? record(client as never) : undefined));
      };
    return undefined;
  });
}

/** Computes a parameter of a replayed statement from the move's key and the replay's answers so far. */
type Resolve = (key: string, answers: pg.QueryResult[]) => unknown;
interface ReplayStatement {
  config: { text: string; name?: string };
  values?: Resolve[];
  rowCount: number | null;
  /** Where the substitutions are, for the printout. */
  substituted: string[];
}

/**
 * Turns one recorded cash-in into a replay plan: every parameter stays as recorded except the
 * idempotency key (any value equal to it, also inside arrays) and values equal to an `id` an earlier
 * statement returned, which take the id at the same statement, row and column of the replay.
 */
function replayPlan(log: Recorded[], key: string): ReplayStatement[] {
  return log.map((statement, index) => {
    const substituted: string[] = [];
    const earlierId = (value: unknown) => {
      if (typeof value !== 'number') return undefined;
      for (let s = 0; s < index; s++) {
        const r = log[s]!.rows.findIndex((answer) => answer.id === value);
        if (r >= 0) return { s, r };
      }
      return undefined;
    };
    const template = (value: unknown, where: string): Resolve => {
      if (value === key) {
        substituted.push(`${where} = idempotency key`);
        return (move) => move;
      }
      if (Array.isArray(value)) {
        const parts = value.map((element, i) => template(element, `${where}[${i + 1}]`));
        return (move, answers) => parts.map((part) => part(move, answers));
      }
      const source = earlierId(value);
      if (source) {
        substituted.push(`${where} = statement ${source.s + 1} row ${source.r + 1} id`);
        return (_move, answers) => answers[source.s]!.rows[source.r].id as unknown;
      }
      return () => value;
    };
    return {
      config: statement.name ? { name: statement.name, text: statement.text } : { text: statement.text },
      values: statement.values?.map((value, i) => template(value, `$${i + 1}`)),
      rowCount: statement.rowCount,
      substituted,
    };
  });
}

const firstLine = (text: string) => text.trim().replace(/\s+/g, ' ').slice(0, 90);

const verdict = new Verdict('ledger');
const dir = benchDir('ledger');
console.log(`Starting an embedded PostgreSQL in ${dir} ...`);
const embedded = await startEmbeddedPostgres(path.join(dir, 'pg'));
try {
  const db = createPool(embedded.url, CLIENTS);
  await migrate(db);

  // Fixtures: one player and one machine per client, so clients never wait on each other's rows
  // (both runs measure the cost of a move, not queueing on one hot account).
  const fundCents = MOVES * (ROUNDS + 2) * 10;
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

  // Ours: a cash-in through the real service (idempotency key, locks, checks, double entry, bus publish).
  const bus = createLocalBus();
  const cashIn = (pool: Db, client: number, idempotencyKey: string) =>
    transfer(
      { db: pool, bus },
      {
        kind: OperationKind.CashIn,
        actionCode: ActionCode.CashIn,
        playerId: players[client]!,
        machineId: machines[client]!,
        idempotencyKey,
        from: { kind: 'wallet', playerId: players[client]! },
        to: { kind: 'machine', machineId: machines[client]! },
        amountCents: 1,
      },
    );
  let run = '';
  const ourMove = async (client: number, n: number) => {
    await cashIn(db, client, `ours-${run}-${n}`);
  };

  // Capture: one real cash-in per client through the recording proxy; its statements are the baseline.
  const plans: ReplayStatement[][] = [];
  let captureProblem = '';
  for (let client = 0; client < CLIENTS; client++) {
    const log: Recorded[] = [];
    const key = `capture-${client}`;
    const moved = await cashIn(recordingPool(db, log), client, key);
    if (moved.replayed) captureProblem = `the capture cash-in of client ${client} was a replay`;
    if (log[0]?.text !== 'BEGIN' || log.at(-1)?.text !== 'COMMIT')
      captureProblem = `the recorded cash-in of client ${client} is not one BEGIN ... COMMIT transaction (${log.map((s) => firstLine(s.text)).join('; ')})`;
    if (!log.some((s) => s.values?.includes(key)))
      captureProblem = `no recorded statement of client ${client} carries the idempotency key as a parameter`;
    plans.push(replayPlan(log, key));
  }
  if (captureProblem) throw new Error(`exact replay impossible: ${captureProblem}`);

  // The raw baseline: the recorded statements, replayed with plain pg on its own pool of the same size.
  const raw = new pg.Pool({ connectionString: embedded.url, max: CLIENTS });
  const rawMove = async (client: number, n: number) => {
    const key = `raw-${run}-${n}`;
    const c = await raw.connect();
    try {
      const answers: pg.QueryResult[] = [];
      for (const statement of plans[client]!) {
        const values = statement.values?.map((resolve) => resolve(key, answers));
        const answer = await c.query({ ...statement.config, values });
        if (answer.rowCount !== statement.rowCount) {
          throw new Error(
            `replay of "${firstLine(statement.config.text)}" answered ${answer.rowCount} rows, the ledger's ${statement.rowCount}`,
          );
        }
        answers.push(answer);
      }
    } catch (error) {
      await c.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      c.release();
    }
  };

  // Warm both paths (connections, prepared statements, plans), then ABBA so neither gets the warmer machine.
  run = 'warm';
  await drive('warm-up ours', CLIENTS * 4, CLIENTS, ourMove);
  await drive('warm-up raw', CLIENTS * 4, CLIENTS, rawMove);
  const results: RunResult[] = [];
  const pairs: { raw: RunResult; ours: RunResult }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    run = String(round + 1);
    const runRaw = () => drive(`raw SQL #${round + 1}`, MOVES, CLIENTS, rawMove);
    const runOurs = () => drive(`ledger #${round + 1}`, MOVES, CLIENTS, ourMove);
    let rawResult: RunResult;
    let ourResult: RunResult;
    if (round % 2 === 0) {
      rawResult = await runRaw();
      ourResult = await runOurs();
      results.push(rawResult, ourResult);
    } else {
      ourResult = await runOurs();
      rawResult = await runRaw();
      results.push(ourResult, rawResult);
    }
    pairs.push({ raw: rawResult, ours: ourResult });
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
    `Ledger benchmark: ${CLIENTS} concurrent clients, ${MOVES} moves per run, ${ROUNDS} rounds in ABBA order (raw, ours, ours, raw, ...) after ${CLIENTS * 4} warm-up moves each; PostgreSQL ${version} (embedded, fsync on), ${os.cpus().length} CPUs`,
  );
  console.log('ledger  = wallet -> machine cash-in of 1 cent through the ledger service (transfer(): checks, request hash, locks, double entry, balance publish)');
  console.log(`raw SQL = the same cash-in's statements, recorded from the ledger (one capture per client) and replayed with plain pg on its own pool of ${CLIENTS}:`);
  for (const [i, statement] of plans[0]!.entries()) {
    const prepared = statement.config.name ? ` [prepared "${statement.config.name}"]` : '';
    const params = statement.values ? `, ${statement.values.length} params` : '';
    const changed = statement.substituted.length ? `; per move: ${statement.substituted.join(', ')}` : '';
    console.log(`  ${i + 1}. ${firstLine(statement.config.text)}${prepared} -> ${statement.rowCount === null ? 'no rows' : `${statement.rowCount} rows`}${params}${changed}`);
  }
  console.log('');
  printTable([...results, rawTotal, ourTotal].map(row));
  console.log('');
  console.log('ours / raw per round (moves/s):');
  for (const [i, pair] of pairs.entries()) {
    const order = i % 2 === 0 ? 'raw first' : 'ours first';
    console.log(
      `  round ${i + 1} (${order}): ${movesPerSecond(pair.ours).toFixed(0)} / ${movesPerSecond(pair.raw).toFixed(0)} = ${((movesPerSecond(pair.ours) / movesPerSecond(pair.raw)) * 100).toFixed(1)}%`,
    );
  }
  const ratio = movesPerSecond(ourTotal) / movesPerSecond(rawTotal);
  console.log(`  overall: ${movesPerSecond(ourTotal).toFixed(0)} / ${movesPerSecond(rawTotal).toFixed(0)} = ${(ratio * 100).toFixed(1)}%`);

  const audit = await auditLedger(db);
  console.log(`\nledger audit after the run (raw replays write the same tables): ${audit.ok ? 'ok' : `NOT OK ${JSON.stringify(audit)}`}`);
  console.log('');
  console.log(`rounds: ${verdict.samples('rounds', ROUNDS, MIN_ROUNDS)}`);
  for (const result of results) verdict.samples(result.name, result.latenciesMs.length, MOVES);
  console.log(`moves per run: every run ${MOVES} (checked per run)`);
  console.log(`ours / raw: ${verdict.check('ours / raw moves per second', Number((ratio * 100).toFixed(1)), { min: GOAL * 100, unit: '%' })}`);
  const problems = Math.abs(audit.total) + audit.unbalanced + audit.drifted + audit.negative;
  console.log(`ledger audit problems: ${verdict.check('ledger audit problems', problems, { max: 0 })}`);
  await raw.end();
  await db.end();
} catch (error) {
  console.error(`Benchmark failed: ${(error as Error).stack ?? String(error)}`);
  verdict.missing('ledger benchmark', (error as Error).message);
} finally {
  await embedded.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
verdict.finish();
// Explicit, so an open handle (a pool, a socket) cannot keep the process or hide the result.
process.exit(process.exitCode ?? 0);
