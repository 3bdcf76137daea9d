/**
 * A part of the cluster's cabinet mirror: only the machines `belongs` accepts (one shard, for its
 * session manager; or every shard this server owns, for its video). Events of other machines never
 * reach the listeners, so a shard's manager hears and drives only its own machines.
 */
import { AgentCommandError, type AgentHubEvents, type CommandInput } from '../modules/cabinets/agent-hub.js';
import type { CabinetPort } from '../modules/sessions/types.js';
import type { ClusterCabinets } from './cluster-cabinets.js';

type Listener = (...args: unknown[]) => void;

export class FilteredCabinets implements CabinetPort {
  private readonly wrapped: { event: keyof AgentHubEvents; listener: Listener; wrapper: Listener }[] = [];

  constructor(
    private readonly mirror: ClusterCabinets,
    private readonly belongs: (machineId: number) => boolean,
  ) {}

  owns(machineId: number) {
    return this.belongs(machineId);
  }

  isConnected(machineId: number) {
    return this.belongs(machineId) && this.mirror.isConnected(machineId);
  }

  get(machineId: number) {
    return this.belongs(machineId) ? this.mirror.get(machineId) : undefined;
  }

  /** Refused for a machine outside (a shard given up: its new owner drives the cabinet now). */
  async sendCommand(machineId: number, input: CommandInput, opts?: { timeoutMs?: number }) {
    if (!this.belongs(machineId)) throw new AgentCommandError('not_connected', `machine ${machineId} is not driven here`);
    return this.mirror.sendCommand(machineId, input, opts);
  }

  sendEmergencyStop(machineId: number, stop: { reason: string } | null) {
    return this.belongs(machineId) && this.mirror.sendEmergencyStop(machineId, stop);
  }

  acknowledgeCycle(machineId: number, gameId: string) {
    if (this.belongs(machineId)) this.mirror.acknowledgeCycle(machineId, gameId);
  }

  on<E extends keyof AgentHubEvents>(event: E, listener: (...args: AgentHubEvents[E]) => void) {
    const wrapper = (...args: AgentHubEvents[E]) => {
      if (this.belongs((args[0] as { machineId: number }).machineId)) listener(...args);
    };
    this.wrapped.push({ event, listener: listener as unknown as Listener, wrapper: wrapper as unknown as Listener });
    this.mirror.on(event, wrapper as never);
    return this;
  }

  off<E extends keyof AgentHubEvents>(event: E, listener: (...args: AgentHubEvents[E]) => void) {
    const index = this.wrapped.findIndex((w) => w.event === event && w.listener === (listener as unknown as Listener));
    if (index >= 0) this.mirror.off(event, this.wrapped.splice(index, 1)[0]!.wrapper as never);
    return this;
  }

  /** Every listener added here leaves the mirror (the shard was given up). */
  stop() {
    for (const { event, wrapper } of this.wrapped.splice(0)) this.mirror.off(event, wrapper as never);
  }
}
