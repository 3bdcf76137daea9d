/**
 * Judges lobby pushes that are conflated (issue 29: one write per socket per 100 ms, the latest
 * state wins): a change counts as delivered at a socket when that socket receives the same machine's
 * state sent at or after it, since a newer state replaces an older one on its way. So every change
 * has a delivery time at every probe socket (its own message, or the newer one that replaced it),
 * and the last change of each machine must arrive itself: nothing final is lost.
 */
export class LobbyDeliveries {
  /** Per probe socket, per machine: [sentAt, receivedAt] in arrival order. */
  private readonly received: Map<number, [number, number][]>[] = [];
  private readonly changes: { id: number; sentAt: number }[] = [];
  lastReceivedAt = 0;

  /** A probe socket's receiver: call it with each frame's `sentAt` and machine id. */
  probe(): (sentAt: number, id: number) => void {
    const byMachine = new Map<number, [number, number][]>();
    this.received.push(byMachine);
    return (sentAt, id) => {
      const at = (this.lastReceivedAt = Date.now());
      let list = byMachine.get(id);
      if (!list) byMachine.set(id, (list = []));
      list.push([sentAt, at]);
    };
  }

  changed(id: number, sentAt: number): void {
    this.changes.push({ id, sentAt });
  }

  /** Every probe socket has every machine's last state (what the wait after the changes waits for). */
  finalsDelivered(): boolean {
    const last = new Map<number, number>();
    for (const c of this.changes) last.set(c.id, c.sentAt);
    return this.received.every((byMachine) => [...last].every(([id, sentAt]) => (byMachine.get(id) ?? []).some(([s]) => s === sentAt)));
  }

  get probes(): number {
    return this.received.length;
  }

  /** Change-to-delivery latencies over every (change, probe) pair, the pairs never delivered, and final states missed. */
  judge(): { latencies: number[]; undelivered: number; finalMissed: number; messages: number } {
    const latencies: number[] = [];
    let undelivered = 0;
    let finalMissed = 0;
    let messages = 0;
    const last = new Map<number, number>();
    for (const c of this.changes) last.set(c.id, c.sentAt);
    for (const byMachine of this.received) {
      for (const list of byMachine.values()) messages += list.length;
      for (const c of this.changes) {
        const list = byMachine.get(c.id) ?? [];
        const hit = list.find(([sentAt]) => sentAt >= c.sentAt);
        if (hit) latencies.push(hit[1] - c.sentAt);
        else undelivered++;
      }
      for (const [id, sentAt] of last) if (!(byMachine.get(id) ?? []).some(([s]) => s === sentAt)) finalMissed++;
    }
    return { latencies, undelivered, finalMissed, messages };
  }
}
