/**
 * Every game of a brand feeds the same jackpot rows in its record's transaction. Many games at once
 * must queue on those rows, never deadlock: a deadlock waits out PostgreSQL's 1 s check before one
 * side is retried, and at 200 players the floor stalled on it (docs/scale.md, "The M=200 stall").
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/helper.js';
import { createPool, type Db } from '../../db/pool.js';
import { migrate } from '../../db/migrate.js';
import { createBrand } from '../machines/catalog.js';
import { feedJackpots } from './jackpots.js';

const WORKERS = 24;
const GAMES_EACH = 12;
const BET_CENTS = 1_000;

let db: Db;
let drop: () => Promise<void>;

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  db = createPool(database.url, WORKERS + 2);
  await migrate(db);
});
afterAll(async () => {
  await db?.end();
  await drop?.();
});

it('games of one brand fed at once queue on its jackpot rows without a deadlock, and every bet is counted', async () => {
  const brandId = await createBrand(db, { name: 'Concurrent', jackpotSeedsCents: [100_000, 10_000, 1_000] });
  const { rows: before } = await db.query<{ level: number; amount: string }>('SELECT level, amount_cents AS amount FROM jackpots WHERE brand_id = $1 ORDER BY level', [brandId]);
  let deadlocks = 0;
  // Each game in its own transaction, held a moment after the feed as a record's commit is: no retries here.
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      for (let game = 0; game < GAMES_EACH; game++) {
        const client = await db.connect();
        try {
          await client.query('BEGIN');
          await feedJackpots(client, brandId, BET_CENTS);
          await client.query('SELECT pg_sleep(0.002)');
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          if ((error as { code?: string }).code === '40P01') deadlocks++;
          else throw error;
        } finally {
          client.release();
        }
      }
    }),
  );
  expect(deadlocks).toBe(0);
  const { rows: after } = await db.query<{ level: number; amount: string }>('SELECT level, amount_cents AS amount FROM jackpots WHERE brand_id = $1 ORDER BY level', [brandId]);
  const games = WORKERS * GAMES_EACH;
  // 50, 30 and 20 basis points of each bet.
  expect(after.map((r, i) => Number(r.amount) - Number(before[i]!.amount))).toEqual([50, 30, 20].map((bp) => games * ((BET_CENTS * bp) / 10_000)));
}, 60_000);
