/**
 * Each shard's owner as the servers announce it (`cluster.owner`, shard-owners.ts), kept by every
 * listener the same way: a later epoch of a shard is a later owner, and a late announcement of an
 * earlier owner changes nothing.
 */
import type { OwnerAnnouncement } from './session-rpc.js';

interface OwnerChange {
  shard: number;
  owner: string;
  /** Undefined the first time the shard is heard of. */
  previous: string | undefined;
}

export class OwnerTable {
  private readonly owners = new Map<number, { owner: string; epoch: number }>();

  /** Takes an announcement in; returns the shards whose owner it changed. */
  apply({ owner, shards }: OwnerAnnouncement): OwnerChange[] {
    const changes: OwnerChange[] = [];
    for (const [shard, epoch] of shards) {
      const previous = this.owners.get(shard);
      if (previous && previous.epoch > epoch) continue;
      this.owners.set(shard, { owner, epoch });
      if (previous?.owner !== owner) changes.push({ shard, owner, previous: previous?.owner });
    }
    return changes;
  }

  ownerOf(shard: number): string | undefined {
    return this.owners.get(shard)?.owner;
  }
}
