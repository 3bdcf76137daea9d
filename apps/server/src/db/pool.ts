import pg from 'pg';

// BIGINT (cents) arrives as a string by default; our amounts stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Db = pg.Pool;
export type Tx = pg.PoolClient;
/** Anything that can run a query: the pool or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'>;

export function createPool(url: string, max = 20): Db {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => {});
  return pool;
}

const RETRYABLE = new Set(['40001', '40P01']); // serialization failure, deadlock

/**
 * Runs `work` in one transaction. Money moves only through here. Serialization failures and
 * deadlocks are retried a few times, so callers see either the whole effect or a clean error.
 */
export async function withTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await db.connect();
    // A backend that dies mid-transaction (PostgreSQL killed, or the connection terminated) fails
    // the query, and its client then also emits 'error': the pool listens only to idle clients, so
    // without this the process would die of an unhandled error instead of the caller seeing it.
    let broken: Error | undefined;
    const onError = (error: Error) => (broken = error);
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      const code = (error as { code?: string }).code;
      if (attempt < attempts && code && RETRYABLE.has(code)) continue;
      throw error;
    } finally {
      client.off('error', onError);
      // A broken connection is closed, not handed to the next transaction.
      client.release(broken);
    }
  }
}
