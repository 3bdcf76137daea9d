/**
 * What the queue tells: each player in a line their entry (position, wait, ready check) on the
 * notification channel, and everyone that a machine's queue length changed (`publishQueueChanged`:
 * the session owner republishes the machine's lobby status with it; the watch page may listen too).
 */
import type { QueueEndReason, QueueEntry } from '@reel/protocol';
import { Topic, type Bus } from '../../lib/bus.js';
import type { LineRow } from './queue-repository.js';

/**
 * The estimated wait: what is left of the current session (the machine's typical one, from its last
 * closed sessions), then a typical session for each player ahead. An estimate, said as one.
 */
export function toEntry(row: LineRow): QueueEntry {
  const currentLeftS = Math.max(0, row.typical_s - row.current_s);
  return {
    machineId: row.machine_id,
    machineName: row.machine_name,
    position: row.position,
    length: row.length,
    etaS: row.ready_ms !== null ? 0 : currentLeftS + (row.position - 1) * row.typical_s,
    ready:
      row.ready_until && row.ready_ms !== null
        ? { until: row.ready_until.toISOString(), remainingMs: row.ready_ms }
        : null,
  };
}

export function pushEntry(bus: Bus, playerId: number, entry: QueueEntry | null, ended?: QueueEndReason) {
  bus.publish(Topic.player(playerId), { event: 'queue', data: { entry, ...(ended ? { ended } : {}) } });
}

/** Every player in the line hears their (new) place. */
export function pushLine(bus: Bus, line: readonly LineRow[]) {
  for (const row of line) pushEntry(bus, row.player_id, toEntry(row));
}

interface QueueChanged {
  machineId: number;
  length: number;
}

export function publishQueueChanged(bus: Bus, change: QueueChanged) {
  bus.publish(Topic.queueChanged, change);
}
