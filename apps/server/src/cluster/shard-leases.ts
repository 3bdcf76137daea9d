/**
 * Session ownership by shard (docs/scale.md): one PostgreSQL advisory lock per shard, key pair
 * ('reel', shard), all held on one connection of this server's own. PostgreSQL grants each lock to
 * one connection at most and frees every lock of a connection the moment it ends, so a server
 * killed with -9 (its socket closed by the kernel) frees its shards at once, and the others take
 * them at their next round (every `pollMs`).
 *
 * Why advisory locks and not a lease table with expiry times: the lock is exclusive by
 * construction, needs no clocks or renewals, and its release on a dead connection is immediate,
 * where a TTL lease must wait out its expiry before another server may take over. The table
 * `cluster_shards` only shows who owns since when and counts takeovers (`epoch`).
 *
 * Each round reads, in the same place, who is alive (servers with a lease connection, by
 * application_name) and who holds which shard (pg_locks). Every server computes the same even split
 * (shards.ts): one with fewer than its share takes free shards, one with more gives up its least
 * preferred while another is short (a server joined). A round is also the lock connection's check:
 * when it fails or takes longer than `checkTimeoutMs` (the database or the network went away, so
 * the locks may be gone) every shard is given up, timers first (`onLost`), before anybody else can
 * have them; a connection that ends or errors does the same at once.
 */
import pg from 'pg';
import { SHARD_COUNT, preferenceOf, quotaOf } from './shards.js';

/** "reel": the first key of every shard lock in PostgreSQL's advisory lock space (per database). */
const SHARD_LOCK_CLASS = 0x7265656c;
const APP_PREFIX = 'reel-shards-';

interface ShardLeasesOptions {
  databaseUrl: string;
  serverId: string;
  /** `epoch`: the shard's takeover count (cluster_shards), higher for each later owner. */
  onAcquired: (shard: number, epoch: number) => Promise<void>;
  onLost: (shard: number) => Promise<void>;
  shardCount?: number;
  pollMs?: number;
  checkTimeoutMs?: number;
  log?: (line: string) => void;
}

/** What one round reads: the live servers and each held shard's holder. */
interface LeaseView {
  live: string[];
  holders: Map<number, string>;
}

export class ShardLeases {
  private client: pg.Client | null = null;
  private readonly held = new Set<number>();
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private busy: Promise<void> = Promise.resolve();

  constructor(private readonly opts: ShardLeasesOptions) {}

  /** The shards this server owns now. */
  get owned(): ReadonlySet<number> {
    return this.held;
  }

  private get count() {
    return this.opts.shardCount ?? SHARD_COUNT;
  }

  start() {
    this.schedule(0);
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.busy;
    await this.loseAll('stopping', true);
    await this.dropConnection();
  }

  private schedule(delayMs: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.busy = this.round().catch((error) => this.opts.log?.(`shards: ${(error as Error).message}`));
      void this.busy.finally(() => this.schedule(this.opts.pollMs ?? 500));
    }, delayMs);
    this.timer.unref();
  }

  private async connection() {
    if (this.client) return this.client;
    const client = new pg.Client({ connectionString: this.opts.databaseUrl, application_name: `${APP_PREFIX}${this.opts.serverId}` });
    // The locks went with the connection: stop owning at once, not at the next round.
    const lost = () => {
      if (this.client !== client) return;
      this.client = null;
      void this.loseAll('lock connection lost', false);
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect();
    this.client = client;
    return client;
  }

  private async round() {
    let client: pg.Client;
    let view: LeaseView;
    try {
      client = await this.connection();
      view = await this.withTimeout(readView(client, this.count));
    } catch (error) {
      await this.loseAll((error as Error).message, false);
      await this.dropConnection();
      throw error;
    }
    const me = this.opts.serverId;
    // What PostgreSQL says decides: a shard it no longer shows as ours is not ours.
    for (const shard of [...this.held]) if (view.holders.get(shard) !== me) await this.lose(shard, 'the lock is gone', false);
    const quota = quotaOf(me, view.live, this.count);
    if (this.held.size < quota) await this.takeFree(client, view, quota - this.held.size);
    else if (this.held.size > quota && someoneShort(view, this.count)) await this.giveUp(this.held.size - quota);
  }

  private async takeFree(client: pg.Client, view: LeaseView, wanted: number) {
    const free = preferenceOf(this.opts.serverId, range(this.count)).filter((shard) => !view.holders.has(shard));
    const taken: number[] = [];
    for (const shard of free) {
      if (taken.length === wanted) break;
      const { rows } = await this.withTimeout(client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::int, $2::int) AS ok', [SHARD_LOCK_CLASS, shard]));
      if (rows[0]?.ok) taken.push(shard);
    }
    if (taken.length === 0) return;
    for (const shard of taken) this.held.add(shard);
    let epochs: Map<number, number>;
    try {
      const { rows } = await this.withTimeout(
        client.query<{ shard: number; epoch: string }>(
          `INSERT INTO cluster_shards (shard, owner, since) SELECT s, $2, now() FROM unnest($1::int[]) AS s
           ON CONFLICT (shard) DO UPDATE SET owner = EXCLUDED.owner, since = EXCLUDED.since, epoch = cluster_shards.epoch + 1
           RETURNING shard, epoch`,
          [taken, this.opts.serverId],
        ),
      );
      epochs = new Map(rows.map((r) => [r.shard, Number(r.epoch)]));
    } catch (error) {
      // Without its epoch a shard cannot be announced: give the locks back, try again next round.
      await this.stopOwning(taken, `recording the owner failed: ${(error as Error).message}`);
      for (const shard of taken) await this.unlock(shard);
      return;
    }
    this.opts.log?.(`shards: ${this.opts.serverId} takes ${taken.length} shard(s): ${taken.join(',')}`);
    const failed: number[] = [];
    await Promise.all(
      taken.map(async (shard) => {
        try {
          await this.opts.onAcquired(shard, epochs.get(shard) ?? 0);
        } catch (error) {
          this.opts.log?.(`shards: starting shard ${shard} failed: ${(error as Error).message}`);
          failed.push(shard);
        }
      }),
    );
    // Could not take those shards' sessions up: let another server try.
    for (const shard of failed) await this.lose(shard, 'start failed', true);
  }

  /** Gives up the least preferred shards (another server is short of its share). */
  private async giveUp(extra: number) {
    const order = preferenceOf(this.opts.serverId, this.held).reverse();
    for (const shard of order.slice(0, extra)) await this.lose(shard, 'rebalancing', true);
  }

  /** Stops owning first (timers off), then lets the lock go when the connection still holds it. */
  private async lose(shard: number, why: string, unlock: boolean) {
    await this.stopOwning([shard], why);
    if (unlock) await this.unlock(shard);
  }

  /** Every shard stops (all at once), then the locks go one query after another on the one connection. */
  private async loseAll(why: string, unlock: boolean) {
    const shards = [...this.held];
    await this.stopOwning(shards, why);
    if (unlock) for (const shard of shards) await this.unlock(shard);
  }

  private async stopOwning(shards: number[], why: string) {
    const mine = shards.filter((shard) => this.held.delete(shard));
    if (mine.length > 0) this.opts.log?.(`shards: ${this.opts.serverId} gives shard(s) ${mine.join(',')} up (${why})`);
    await Promise.all(mine.map((shard) => this.opts.onLost(shard).catch((error) => this.opts.log?.(`shards: stopping shard ${shard}: ${(error as Error).message}`))));
  }

  private async unlock(shard: number) {
    await this.client?.query('SELECT pg_advisory_unlock($1::int, $2::int)', [SHARD_LOCK_CLASS, shard]).catch(() => {});
  }

  private async withTimeout<T>(work: Promise<T>): Promise<T> {
    const timeoutMs = this.opts.checkTimeoutMs ?? 2_000;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([work, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`lock connection silent for ${timeoutMs} ms`)), timeoutMs)))]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async dropConnection() {
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}

async function readView(client: pg.Client, count: number): Promise<LeaseView> {
  const live = await client.query<{ server: string }>(
    `SELECT substr(application_name, ${APP_PREFIX.length + 1}) AS server FROM pg_stat_activity
      WHERE datname = current_database() AND application_name LIKE '${APP_PREFIX}%'`,
  );
  const locks = await client.query<{ shard: number; server: string }>(
    `SELECT l.objid::int AS shard, substr(a.application_name, ${APP_PREFIX.length + 1}) AS server
       FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1::oid AND l.objsubid = 2
        AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND l.objid < $2`,
    [SHARD_LOCK_CLASS, count],
  );
  return { live: live.rows.map((r) => r.server), holders: new Map(locks.rows.map((r) => [r.shard, r.server])) };
}

/** Whether a live server holds fewer shards than its share (one joined, or took over late). */
function someoneShort(view: LeaseView, count: number) {
  const held = new Map<string, number>();
  for (const server of view.holders.values()) held.set(server, (held.get(server) ?? 0) + 1);
  return view.live.some((server) => (held.get(server) ?? 0) < quotaOf(server, view.live, count));
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
