/**
 * How many spectators watch each machine, and the limit (MAX_WATCHERS_PER_MACHINE). Each server
 * counts the watch sockets it holds and tells the others over the bus, so the total (the lobby's
 * figure, the limit's) is the sum over servers. A change goes to the lobby as a `watchers` push
 * (conflated per socket like every lobby push: notifications/lobby-conflation.ts).
 */
import { EventEmitter } from 'node:events';
import type { Bus } from '../../lib/bus.js';
import { pushWatchers } from '../notifications/lobby-pushes.js';

const COUNTS_TOPIC = 'watch.counts';

interface CountMessage {
  server: string;
  machineId: number;
  count: number;
}

export class WatcherCounts extends EventEmitter<{ change: [machineId: number, total: number] }> {
  private readonly local = new Map<number, number>();
  /** Other servers' counts: server → machine → count. */
  private readonly remote = new Map<string, Map<number, number>>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly bus: Bus,
    private readonly serverId: string,
    private readonly max: number,
  ) {
    super();
    this.setMaxListeners(0);
    this.unsubscribe = bus.subscribe(COUNTS_TOPIC, (message) => {
      const m = message as CountMessage;
      if (m.server === this.serverId) return;
      let counts = this.remote.get(m.server);
      if (!counts) this.remote.set(m.server, (counts = new Map()));
      if (m.count > 0) counts.set(m.machineId, m.count);
      else counts.delete(m.machineId);
      this.emit('change', m.machineId, this.total(m.machineId));
    });
  }

  total(machineId: number): number {
    let sum = this.local.get(machineId) ?? 0;
    for (const counts of this.remote.values()) sum += counts.get(machineId) ?? 0;
    return sum;
  }

  isWatched(machineId: number): boolean {
    return this.total(machineId) > 0;
  }

  /** Takes a place for one more spectator; false when the machine has `max` already. */
  tryAdd(machineId: number): boolean {
    if (this.total(machineId) >= this.max) return false;
    this.local.set(machineId, (this.local.get(machineId) ?? 0) + 1);
    this.announce(machineId);
    return true;
  }

  remove(machineId: number): void {
    const count = (this.local.get(machineId) ?? 0) - 1;
    if (count > 0) this.local.set(machineId, count);
    else this.local.delete(machineId);
    this.announce(machineId);
  }

  get limit(): number {
    return this.max;
  }

  private announce(machineId: number): void {
    const total = this.total(machineId);
    const message: CountMessage = { server: this.serverId, machineId, count: this.local.get(machineId) ?? 0 };
    this.bus.publish(COUNTS_TOPIC, message);
    pushWatchers(this.bus, machineId, total);
    this.emit('change', machineId, total);
  }

  close(): void {
    this.unsubscribe();
    this.removeAllListeners();
  }
}
