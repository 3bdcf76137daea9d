/**
 * Every server's half of the cabinets in a cluster: what its own agent hub hears goes on the bus
 * (`cab.events`), commands for the machines connected here are answered on `cab.cmd.<server>`, the
 * owner's acknowledgements of stored games reach them on `cab.ack.<server>`, an emergency stop on
 * `cab.estop.<server>`, and a `cab.sync` (a new shard owner asking for its shard, or a starting
 * server for all) republishes the machines connected here.
 */
import type { AgentHub, AgentHubEvents, CommandInput, ConnectedMachine } from '../modules/cabinets/agent-hub.js';
import type { Bus } from '../lib/bus.js';
import { shardOf } from './shards.js';

/** What travels on `cab.events`: the hub's event, its data, and the server whose hub heard it. */
export type CabinetEvent =
  /** `sync`: an answer to a `cab.sync` for that shard, or 'all' (a starting server filling its mirror). */
  | { server: string; event: 'connected'; data: ConnectedMachine; sync?: number | 'all' }
  | { server: string; event: 'disconnected'; data: AgentHubEvents['disconnected'][0] }
  | { server: string; event: 'state'; data: AgentHubEvents['state'][0] }
  | { server: string; event: 'cycle'; data: AgentHubEvents['cycle'][0] }
  | { server: string; event: 'meters'; data: AgentHubEvents['meters'][0] };

/** What travels on `cab.ack.<server>`: a stored game, for the cabinet connected there. */
export interface CabinetCycleAck {
  machineId: number;
  gameId: string;
}

/** What travels on `cab.sync`: the shard whose new owner asks, or none for every machine. */
export interface CabinetSyncRequest {
  from: string;
  shard?: number;
}

/** What travels on `cab.estop.<server>`: an emergency stop (or its release) for a cabinet connected there. */
export interface CabinetStopMessage {
  machineId: number;
  stop: { reason: string } | null;
}

export interface CabinetCommandRequest {
  machineId: number;
  input: CommandInput;
  timeoutMs?: number;
}

export const CabinetTopic = {
  events: 'cab.events',
  sync: 'cab.sync',
  command: (server: string) => `cab.cmd.${server}`,
  cycleAck: (server: string) => `cab.ack.${server}`,
  emergencyStop: (server: string) => `cab.estop.${server}`,
} as const;

export function relayCabinets(bus: Bus, hub: AgentHub, server: string) {
  const publish = (message: CabinetEvent) => bus.publish(CabinetTopic.events, message);
  const forwarded = ['connected', 'disconnected', 'state', 'cycle', 'meters'] as const;
  const listeners = forwarded.map((event) => {
    const listener = (data: unknown) => publish({ server, event, data } as CabinetEvent);
    hub.on(event, listener);
    return () => hub.off(event, listener);
  });
  // A connected machine carries its state, video error and meters: one message says it all.
  const republish = (message: unknown) => {
    const { shard } = (message ?? {}) as CabinetSyncRequest;
    for (const machine of hub.list()) {
      if (shard === undefined || shardOf(machine.machineId) === shard) publish({ server, event: 'connected', data: machine, sync: shard ?? 'all' });
    }
  };
  const offSync = bus.subscribe(CabinetTopic.sync, republish);
  const offStops = bus.subscribe(CabinetTopic.emergencyStop(server), (message) => {
    const { machineId, stop } = message as CabinetStopMessage;
    hub.sendEmergencyStop(machineId, stop);
  });
  const offAcks = bus.subscribe(CabinetTopic.cycleAck(server), (message) => {
    const { machineId, gameId } = message as CabinetCycleAck;
    hub.acknowledgeCycle(machineId, gameId);
  });
  const offCommands = bus.respond(CabinetTopic.command(server), async (message) => {
    const { machineId, input, timeoutMs } = message as CabinetCommandRequest;
    return hub.sendCommand(machineId, input, timeoutMs ? { timeoutMs } : {});
  });
  return {
    stop() {
      for (const off of listeners) off();
      offSync();
      offStops();
      offAcks();
      offCommands();
    },
  };
}
