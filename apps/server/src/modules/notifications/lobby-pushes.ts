/**
 * The lobby's live figures besides a machine's status and queue length (both in the `machine` push,
 * sessions/lobby-status.ts): its watcher count (modules/spectators). Each is a
 * state, so the notification hub conflates them per socket (lobby-conflation.ts): call these on
 * every change, as often as it happens; a socket gets the latest at most every 100 ms.
 */
import { Topic, type Bus } from '../../lib/bus.js';

export function pushWatchers(bus: Bus, machineId: number, count: number): void {
  bus.publish(Topic.lobby, { event: 'watchers', data: { id: machineId, count } });
}

