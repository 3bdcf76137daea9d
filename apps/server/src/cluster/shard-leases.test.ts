/**
 * Shard leases on a real PostgreSQL, several servers racing for them: every shard has exactly one
 * owner (a shard's new owner starts only after the old one stopped, or died), the shards split
 * evenly, a dead server's shards (and only those) move to the others within two seconds, and a
 * server that joins gets its share from the others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase } from '../../test/helper.js';
import { migrate } from '../db/migrate.js';
import { createPool } from '../db/pool.js';
import { ShardLeases } from './shard-leases.js';
import { SHARD_COUNT, quotaOf } from './shards.js';

let url: string;
let drop: () => Promise<void>;

beforeAll(async () => {
  const database = await createTestDatabase();
  url = database.url;
  drop = database.drop;
  const db = createPool(url, 1);
  await migrate(db);
  await db.end();
});
afterAll(() => drop());

const until = async (check: () => boolean, timeoutMs: number, what: string) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** Who runs each shard's sessions now, as the servers' own callbacks say; any overlap is a violation. */
class Floor {
  readonly running = new Map<number, string>();
  readonly violations: string[] = [];
  readonly dead = new Set<string>();
  acquired(server: string, shard: number) {
    const other = this.running.get(shard);
    if (other !== undefined && !this.dead.has(other)) this.violations.push(`shard ${shard}: ${server} started while ${other} runs it`);
    this.running.set(shard, server);
  }
  lost(server: string, shard: number) {
    if (this.dead.has(server)) return;
    if (this.running.get(shard) !== server) this.violations.push(`shard ${shard}: ${server} stopped what it did not run`);
    else this.running.delete(shard);
  }
  /** A kill -9: the server's sessions stop with its process. */
  kill(server: string) {
    this.dead.add(server);
    for (const [shard, owner] of [...this.running]) if (owner === server) this.running.delete(shard);
  }
  owned(server: string) {
    return new Set([...this.running].filter(([, owner]) => owner === server).map(([shard]) => shard));
  }
}

describe('shard leases', () => {
  it('race, split evenly, move only a dead server’s shards, and give a joining server its share; never two owners', async () => {
    const floor = new Floor();
    const lease = (id: string) =>
      new ShardLeases({
        databaseUrl: url,
        serverId: id,
        pollMs: 20,
        // Starting a shard's sessions takes a while (loading them), stopping them longer (draining
        // their work): another server polling this often must still never run the shard meanwhile.
        onAcquired: async (shard) => {
          floor.acquired(id, shard);
          await new Promise((r) => setTimeout(r, Math.random() * 20));
        },
        onLost: async (shard) => {
          await new Promise((r) => setTimeout(r, 30 + Math.random() * 50));
          floor.lost(id, shard);
        },
      });
    const servers = new Map(['a', 'b', 'c'].map((id) => [id, lease(id)]));
    // All three start at once and race for the same 64 locks.
    for (const l of servers.values()) l.start();
    const evenly = (live: string[]) => () =>
      floor.running.size === SHARD_COUNT && live.every((id) => floor.owned(id).size === quotaOf(id, live) && servers.get(id)!.owned.size === quotaOf(id, live));
    await until(evenly(['a', 'b', 'c']), 15_000, 'an even split over a, b, c');
    expect(floor.violations).toEqual([]);
    expect([...servers.values()].map((l) => l.owned.size).sort()).toEqual([21, 21, 22]);

    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const holders = async () => {
      const { rows } = await admin.query<{ shard: number; owner: string; epoch: string }>('SELECT shard, owner, epoch FROM cluster_shards ORDER BY shard');
      return new Map(rows.map((r) => [r.shard, { owner: r.owner, epoch: Number(r.epoch) }]));
    };
    const before = await holders();
    const keptA = floor.owned('a');
    const keptC = floor.owned('c');
    const ofB = floor.owned('b');

    // kill -9 of b: its timers stop with it and the kernel closes its lock connection.
    const b = servers.get('b')! as unknown as { stopped: boolean; timer: NodeJS.Timeout; client: { connection: { stream: { destroy(): void } } } };
    b.stopped = true;
    clearTimeout(b.timer);
    floor.kill('b');
    b.client.connection.stream.destroy();
    const killedAt = Date.now();
    await until(evenly(['a', 'c']), 10_000, "b's shards taken by a and c");
    const movedMs = Date.now() - killedAt;
    console.log(`[shards] kill of b: its ${ofB.size} shards owned again by a and c after ${movedMs} ms (poll 20 ms)`);
    expect(movedMs).toBeLessThan(2_000);
    expect(floor.violations).toEqual([]);
    // Only b's shards moved: a and c kept every shard they had, with the same epoch.
    for (const shard of keptA) expect(floor.running.get(shard)).toBe('a');
    for (const shard of keptC) expect(floor.running.get(shard)).toBe('c');
    const after = await holders();
    for (const shard of [...keptA, ...keptC]) expect(after.get(shard)).toEqual(before.get(shard));
    for (const shard of ofB) {
      expect(['a', 'c']).toContain(after.get(shard)!.owner);
      expect(after.get(shard)!.epoch).toBe(before.get(shard)!.epoch + 1);
    }

    // d joins: a and c give up their least preferred shards until d has its share.
    servers.delete('b');
    servers.set('d', lease('d'));
    servers.get('d')!.start();
    await until(evenly(['a', 'c', 'd']), 15_000, 'an even split over a, c, d');
    expect(floor.violations).toEqual([]);

    // The table shows what PostgreSQL's locks decide.
    const locks = await admin.query<{ shard: number; server: string }>(
      `SELECT l.objid::int AS shard, substr(a.application_name, 13) AS server FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.classid = $1::oid AND l.objsubid = 2 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [0x7265656c],
    );
    expect(locks.rows.length).toBe(SHARD_COUNT);
    const shown = await holders();
    for (const row of locks.rows) expect(shown.get(row.shard)!.owner).toBe(row.server);
    await admin.end();

    for (const l of servers.values()) await l.stop();
    expect(floor.running.size).toBe(0);
    expect(floor.violations).toEqual([]);
  }, 60_000);
});
