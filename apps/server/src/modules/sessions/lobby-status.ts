/**
 * A machine's lobby status (free, playing, hot, offline...) published to every lobby. Reads and
 * publishes run one after another per machine, so an older read can never be published after a
 * newer one (a free machine shown as Playing); a status equal to the last one published is not
 * pushed again (a spin changes the cabinet's state several times, the lobby status rarely).
 */
import { KeyedQueue } from '@reel/process';
import type { Queryable } from '../../db/pool.js';
import { Topic, type Bus } from '../../lib/bus.js';
import { listMachines } from '../machines/lobby.js';

export class LobbyStatus {
  private readonly queue = new KeyedQueue<number>();
  private readonly published = new Map<number, string>();

  constructor(
    private readonly deps: {
      db: Queryable;
      bus: Bus;
      hotLimitCents: () => number;
      warn: (error: unknown, where: string) => void;
    },
  ) {}

  publish(machineId: number): Promise<void> {
    return this.queue
      .run(machineId, async () => {
        const [machine] = await listMachines(this.deps.db, {
          hotLimitCents: this.deps.hotLimitCents(),
          machineId,
        });
        if (!machine) return;
        const data = { id: machine.id, status: machine.status, hot: machine.hot, queue: machine.queue ?? 0 };
        const key = JSON.stringify(data);
        if (this.published.get(machineId) === key) return;
        this.published.set(machineId, key);
        this.deps.bus.publish(Topic.lobby, { event: 'machine', data });
      })
      .catch((error: unknown) => this.deps.warn(error, 'lobby status'));
  }
}
