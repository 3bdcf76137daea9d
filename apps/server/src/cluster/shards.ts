/**
 * Machines in shards (docs/scale.md): a fixed number of shards, a machine's shard is its id modulo
 * that number, and each shard's sessions are owned by one server at a time. The count is fixed for
 * the life of a database (changing it would move machines between shards while they are owned).
 */
import { createHash } from 'node:crypto';

export const SHARD_COUNT = 64;

export const shardOf = (machineId: number, count = SHARD_COUNT) => ((machineId % count) + count) % count;

/**
 * How many shards `server` should own with `live` servers up: an even split, the remainder going to
 * the first servers by name. Every server computes the same split from the same list, so the
 * quotas add up to the shard count exactly.
 */
export function quotaOf(server: string, live: readonly string[], count = SHARD_COUNT): number {
  const sorted = [...new Set(live)].sort();
  const index = sorted.indexOf(server);
  if (index < 0) return 0;
  const base = Math.floor(count / sorted.length);
  return base + (index < count % sorted.length ? 1 : 0);
}

/**
 * The shards in the order `server` prefers them (rendezvous hashing): servers racing for free shards
 * mostly ask for different ones first, and a server gives up its least preferred when it has too many.
 */
export function preferenceOf(server: string, shards: Iterable<number>): number[] {
  const score = (shard: number) => createHash('sha1').update(`${server}/${shard}`).digest().readUInt32BE(0);
  return [...shards].map((shard) => ({ shard, score: score(shard) })).sort((a, b) => b.score - a.score).map((s) => s.shard);
}
