/**
 * One session owner in the cluster: a PostgreSQL session-level advisory lock, held on a connection
 * of its own for as long as this server owns. PostgreSQL releases it the moment that connection
 * ends, so a server killed with -9 (its socket closed by the kernel) frees the lease at once, and
 * one of the others, polling every `pollMs`, takes it over within about a second.
 *
 * The owner checks its lock connection every `checkMs`; when a check fails or takes longer than
 * `checkTimeoutMs` (the database or the network went away, so the lock may be gone) it gives the
 * lease up before anybody else can have it, by stopping its timers first (`onLost`). The table
 * `cluster_lease` only shows who owns since when (`GET /check`, the operator); the lock decides.
 */
import pg from 'pg';

/** "reel" + 1: the lock's id in PostgreSQL's advisory lock space (per database). */
const SESSION_LOCK_ID = 0x7265656c01;

interface SessionLeaseOptions {
  databaseUrl: string;
  serverId: string;
  onAcquired: () => Promise<void>;
  onLost: () => Promise<void>;
  pollMs?: number;
  checkMs?: number;
  checkTimeoutMs?: number;
  log?: (line: string) => void;
}

export class SessionLease {
  private client: pg.Client | null = null;
  private holding = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private busy: Promise<void> = Promise.resolve();

  constructor(private readonly opts: SessionLeaseOptions) {}

  get owns() {
    return this.holding;
  }

  start() {
    this.schedule(0);
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.busy;
    if (this.holding) await this.release('stopping');
    await this.client?.end().catch(() => {});
    this.client = null;
  }

  private schedule(delayMs: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.busy = (this.holding ? this.check() : this.tryAcquire()).catch((error) => this.opts.log?.(`lease: ${(error as Error).message}`));
      void this.busy.finally(() => this.schedule(this.holding ? (this.opts.checkMs ?? 1_000) : (this.opts.pollMs ?? 500)));
    }, delayMs);
    this.timer.unref();
  }

  private async connection() {
    if (this.client) return this.client;
    const client = new pg.Client({ connectionString: this.opts.databaseUrl, application_name: `reel-lease-${this.opts.serverId}` });
    // The lock went with the connection: stop owning at once, not at the next check.
    const lost = () => {
      if (this.client === client && this.holding) void this.release('lock connection lost');
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect();
    this.client = client;
    return client;
  }

  private async tryAcquire() {
    let client: pg.Client;
    try {
      client = await this.connection();
      const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [SESSION_LOCK_ID]);
      if (!rows[0]?.ok) return;
    } catch (error) {
      await this.dropConnection();
      throw error;
    }
    this.holding = true;
    await client
      .query(
        `INSERT INTO cluster_lease (name, owner, since) VALUES ('sessions', $1, now())
         ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, since = EXCLUDED.since`,
        [this.opts.serverId],
      )
      .catch(() => {});
    this.opts.log?.(`lease: ${this.opts.serverId} owns the sessions`);
    try {
      await this.opts.onAcquired();
    } catch (error) {
      // Could not take the sessions up: let another server try.
      await this.release(`start failed: ${(error as Error).message}`);
      throw error;
    }
  }

  private async check() {
    const client = this.client;
    let timer: NodeJS.Timeout | undefined;
    const timeoutMs = this.opts.checkTimeoutMs ?? 2_000;
    try {
      if (!client) throw new Error('no lock connection');
      await Promise.race([
        client.query('SELECT 1'),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`lock connection silent for ${timeoutMs} ms`)), timeoutMs))),
      ]);
    } catch (error) {
      await this.release((error as Error).message);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Stops owning first (timers off), then lets the lock go. */
  private async release(why: string) {
    if (!this.holding) return;
    this.holding = false;
    this.opts.log?.(`lease: ${this.opts.serverId} gives the sessions up (${why})`);
    await this.opts.onLost().catch((error) => this.opts.log?.(`lease: stopping the sessions: ${(error as Error).message}`));
    const client = this.client;
    if (client) await client.query('SELECT pg_advisory_unlock($1)', [SESSION_LOCK_ID]).catch(() => {});
    await this.dropConnection();
  }

  private async dropConnection() {
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}
