/** A database that dies mid-transaction, for crash tests. */
import type { Db } from '../../src/db/pool.js';

/** A pool whose connections die (like a killed server) at the first statement matching `at`. */
export function dyingPool(db: Db, at: RegExp): Db {
  return new Proxy(db, {
    get(target, property) {
      if (property !== 'connect') {
        const value = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return async () => {
        const client = await target.connect();
        return new Proxy(client, {
          get(c, p, r) {
            if (p !== 'query') {
              const value = Reflect.get(c, p, r);
              return typeof value === 'function' ? value.bind(c) : value;
            }
            return (query: unknown, values?: unknown) => {
              const text = typeof query === 'string' ? query : (query as { text: string }).text;
              if (at.test(text)) return Promise.reject(Object.assign(new Error('killed'), { code: '57P01' }));
              return c.query(query as string, values as unknown[]);
            };
          },
        });
      };
    },
  });
}
