/**
 * Pushes the floor to the staff channel's sockets: a machine is read again and pushed when its
 * cabinet reports (state, meters, a game), its lobby status moves (a session opened or closed) or
 * staff act on it, and every machine on a slow beat for what changes without an event (the last
 * frame's age). A machine whose view did not change is not pushed again.
 */
import type { AdminChannelMessage, FloorMachine, StaffChatPush } from '@reel/protocol';
import type { Db } from '../../db/pool.js';
import { Topic, type Bus } from '../../lib/bus.js';
import type { CabinetPort } from '../sessions/types.js';
import { readFloor, type FrameAges } from './floor-view.js';

const COALESCE_MS = 100;
const BEAT_MS = 2_000;

interface StaffSocket {
  send(text: string): void;
}

export type FloorCabinets = Pick<CabinetPort, 'get' | 'isConnected' | 'on' | 'off'>;

export class FloorFeed {
  private readonly sockets = new Set<StaffSocket>();
  private readonly last = new Map<number, string>();
  private readonly dirty = new Set<number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly beat: NodeJS.Timeout;
  private readonly offs: (() => void)[] = [];

  constructor(private readonly deps: { db: Db; bus: Bus; cabinets: () => FloorCabinets; frameAges: FrameAges | null; warn: (error: unknown) => void }) {
    const cabinets = deps.cabinets();
    const onMachine = ({ machineId }: { machineId: number }) => this.changed(machineId);
    for (const event of ['connected', 'disconnected', 'state', 'meters', 'cycle'] as const) {
      cabinets.on(event, onMachine);
      this.offs.push(() => cabinets.off(event, onMachine));
    }
    this.offs.push(
      deps.bus.subscribe(Topic.lobby, (message) => {
        const { event, data } = message as { event: string; data: { id?: number } };
        if (event === 'machine' && typeof data.id === 'number') this.changed(data.id);
      }),
      // A support chat line (chat-lines.ts): the console appends it to the thread and the list.
      deps.bus.subscribe(Topic.staffChat, (message) => {
        for (const socket of this.sockets) send(socket, { event: 'chat', data: message as StaffChatPush });
      }),
    );
    this.beat = setInterval(() => {
      if (this.sockets.size) void this.pushAll();
    }, BEAT_MS);
    this.beat.unref();
  }

  read(machineId?: number): Promise<FloorMachine[]> {
    return readFloor(this.deps.db, this.deps.cabinets(), this.deps.frameAges, machineId);
  }

  /** A new staff socket: the whole floor first, then each change. */
  async attach(socket: StaffSocket): Promise<() => void> {
    const machines = await this.read();
    send(socket, { event: 'floor', data: { machines, at: new Date().toISOString() } });
    this.sockets.add(socket);
    return () => void this.sockets.delete(socket);
  }

  changed(machineId: number) {
    if (!this.sockets.size) return;
    this.dirty.add(machineId);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      const machines = [...this.dirty];
      this.dirty.clear();
      void Promise.all(machines.map((id) => this.read(id)))
        .then((found) => found.flat().forEach((machine) => this.push(machine)))
        .catch(this.deps.warn);
    }, COALESCE_MS);
  }

  private async pushAll() {
    try {
      for (const machine of await this.read()) this.push(machine);
    } catch (error) {
      this.deps.warn(error);
    }
  }

  private push(machine: FloorMachine) {
    const json = JSON.stringify(machine);
    if (this.last.get(machine.machineId) === json) return;
    this.last.set(machine.machineId, json);
    for (const socket of this.sockets) send(socket, { event: 'machine', data: machine });
  }

  close() {
    clearInterval(this.beat);
    clearTimeout(this.timer);
    for (const off of this.offs.splice(0)) off();
    this.sockets.clear();
  }
}

function send(socket: StaffSocket, message: AdminChannelMessage) {
  socket.send(JSON.stringify(message));
}
