/**
 * The console's floor actions in a cluster (issue 27's open item): kick, cash out, out of service,
 * emergency stop, staff video and hand-pay notices reach the session manager of the machine's shard,
 * on whichever server owns it, over the same `sessions.call.<shard>` as the players' calls.
 */
import type { StreamGrant } from '@reel/protocol';
import type { FloorSessions } from '../modules/floor/floor-actions.js';
import type { SessionManager } from '../modules/sessions/session-manager.js';
import type { FloorMethod, SessionClient } from './session-rpc.js';
import { shardOf } from './shards.js';

/** What the floor and hand-pay routes ask of a machine's sessions, on whichever server owns its shard. */
export type RelayedFloor = FloorSessions & Pick<SessionManager, 'handPayPaid'>;

export function relayFloor(client: SessionClient): RelayedFloor {
  const ask = async <T>(method: FloorMethod, machineId: number, ...rest: unknown[]) => (await client.ask(shardOf(machineId), method, [machineId, ...rest])).value as T;
  return {
    isHeld: (machineId) => ask<boolean>('isHeld', machineId),
    kickByStaff: (machineId) => ask<number | null>('kickByStaff', machineId),
    cashOutByStaff: (machineId) => ask<number | null>('cashOutByStaff', machineId),
    publishMachine: (machineId) => ask<void>('publishMachine', machineId),
    sendEmergencyStop: (machineId, stop) => ask<boolean>('sendEmergencyStop', machineId, stop),
    staffVideoGrant: (machineId) => ask<StreamGrant | null>('staffVideoGrant', machineId),
    handPayPaid: (machineId, playerId, amountCents) => ask<void>('handPayPaid', machineId, playerId, amountCents),
  };
}
