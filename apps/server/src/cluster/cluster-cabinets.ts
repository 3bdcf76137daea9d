/**
 * Every server's view of every cabinet in the cluster, whichever server holds its agent
 * connection: a mirror built from `cab.events`, with the same face as the agent hub (CabinetPort),
 * so the session managers of the shards owned here run unchanged over a filtered view of it
 * (filtered-cabinets.ts), and the console's floor shows every machine. Commands go to the holding server's `cab.cmd.<server>`
 * (or straight to the local hub). A server that stops saying it is alive loses its machines: they
 * go offline here until their agents reconnect elsewhere.
 */
import { EventEmitter } from 'node:events';
import type { CommandResult } from '@reel/protocol';
import { AgentCommandError, type AgentHub, type AgentHubEvents, type CommandInput, type ConnectedMachine } from '../modules/cabinets/agent-hub.js';
import { BusError, type Bus } from '../lib/bus.js';
import type { CabinetPort } from '../modules/sessions/types.js';
import { CabinetTopic, type CabinetCommandRequest, type CabinetCycleAck, type CabinetEvent, type CabinetStopMessage, type CabinetSyncRequest } from './cabinet-relay.js';
import { RemoteError } from './nats-bus.js';

const DEFAULT_TIMEOUT_MS = 5_000;

interface Mirrored {
  server: string;
  machine: ConnectedMachine;
}

export class ClusterCabinets extends EventEmitter<AgentHubEvents> implements CabinetPort {
  private readonly machines = new Map<number, Mirrored>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly bus: Bus,
    private readonly localHub: AgentHub,
    private readonly server: string,
  ) {
    super();
    // Every owned shard's manager and the server's video listen here (a server owns up to 64 shards).
    this.setMaxListeners(0);
    this.unsubscribe = bus.subscribe(CabinetTopic.events, (message) => this.apply(message as CabinetEvent));
  }

  /**
   * Asks every server to say which machines it holds: of one shard (its new owner's manager hears
   * each as 'connected', which runs the meter check and re-sends pending commands), or all of them
   * (a starting server fills its mirror; machines it already knew are not announced again).
   */
  sync(shard?: number) {
    this.bus.publish(CabinetTopic.sync, { from: this.server, ...(shard === undefined ? {} : { shard }) } satisfies CabinetSyncRequest);
  }

  stop() {
    this.unsubscribe();
    this.machines.clear();
  }

  isConnected(machineId: number) {
    return this.machines.has(machineId);
  }

  get(machineId: number) {
    return this.machines.get(machineId)?.machine;
  }

  /** The server holding each machine (the benchmark and docs show where things run). */
  holders(): Map<number, string> {
    return new Map([...this.machines].map(([id, m]) => [id, m.server]));
  }

  /** Every machine of `server` goes offline (it stopped answering or saying it is alive). */
  dropServer(server: string) {
    for (const [machineId, mirrored] of [...this.machines]) {
      if (mirrored.server !== server) continue;
      this.apply({ server, event: 'state', data: { machineId, state: 'offline', previous: mirrored.machine.state, atMs: Date.now(), reason: 'server gone' } });
      this.apply({ server, event: 'disconnected', data: { machineId } });
    }
  }

  /** To the server holding the machine's agent connection; false when it is not connected anywhere. */
  sendEmergencyStop(machineId: number, stop: { reason: string } | null): boolean {
    const mirrored = this.machines.get(machineId);
    if (!mirrored) return false;
    if (mirrored.server === this.server) return this.localHub.sendEmergencyStop(machineId, stop);
    this.bus.publish(CabinetTopic.emergencyStop(mirrored.server), { machineId, stop } satisfies CabinetStopMessage);
    return true;
  }

  async sendCommand(machineId: number, input: CommandInput, opts: { timeoutMs?: number } = {}): Promise<CommandResult> {
    const mirrored = this.machines.get(machineId);
    if (!mirrored) throw new AgentCommandError('not_connected', `machine ${machineId} is not connected`);
    if (mirrored.server === this.server) return this.localHub.sendCommand(machineId, input, opts);
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const request: CabinetCommandRequest = { machineId, input, timeoutMs };
    try {
      // A little longer than the cabinet's own timeout, so its answer (or its timeout) comes back.
      return (await this.bus.request(CabinetTopic.command(mirrored.server), request, { timeoutMs: timeoutMs + 1_000 })) as CommandResult;
    } catch (error) {
      const remote = error instanceof RemoteError ? error.details.reason : undefined;
      if (remote === 'not_connected' || remote === 'disconnected') throw new AgentCommandError(remote, (error as RemoteError).message);
      if (error instanceof BusError) throw new AgentCommandError(error.reason === 'no_responder' ? 'not_connected' : 'timeout', error.message);
      throw error;
    }
  }

  /** To the server holding the machine's agent connection (a lost one: the cabinet sends the game again). */
  acknowledgeCycle(machineId: number, gameId: string) {
    const mirrored = this.machines.get(machineId);
    if (!mirrored) return;
    if (mirrored.server === this.server) return this.localHub.acknowledgeCycle(machineId, gameId);
    const ack: CabinetCycleAck = { machineId, gameId };
    this.bus.publish(CabinetTopic.cycleAck(mirrored.server), ack);
  }

  private apply(message: CabinetEvent) {
    const current = this.machines.get(message.data.machineId);
    switch (message.event) {
      case 'connected':
        this.machines.set(message.data.machineId, { server: message.server, machine: message.data });
        // A starting server's sync tells the others nothing new about machines they knew.
        if (message.sync === 'all' && current?.server === message.server) return;
        this.emit('connected', message.data);
        return;
      case 'cycle':
        // Recorded once however often it comes (the cabinet re-sends its outbox until acknowledged).
        this.emit('cycle', message.data);
        return;
    }
    // The rest only from the server that holds the machine now (a late report of an old one is stale).
    if (!current || current.server !== message.server) return;
    switch (message.event) {
      case 'disconnected':
        this.machines.delete(message.data.machineId);
        this.emit('disconnected', message.data);
        return;
      case 'state':
        current.machine.state = message.data.state;
        current.machine.videoError = message.data.videoError ?? null;
        this.emit('state', message.data);
        return;
      case 'meters':
        current.machine.meters = message.data.meters;
        this.emit('meters', message.data);
        return;
    }
  }
}
