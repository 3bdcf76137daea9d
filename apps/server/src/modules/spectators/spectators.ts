/**
 * Spectators (issue 29): anyone signed in may watch a machine someone plays (Playing, or Waiting
 * for its player to come back) — its video with a spectator's grant, the public part of its games,
 * the watcher count. A spectator has no session and no road to one: this module holds no session
 * manager and no cabinet, and its grants carry `role: 'watch'`, which the media process lets
 * receive the stream and nothing else.
 */
import { Code, MachineStatus, type PublicPlay, type StreamGrant } from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';
import type { Bus } from '../../lib/bus.js';
import { AppError } from '../../lib/errors.js';
import { listMachines } from '../machines/lobby.js';
import { playTopic } from './public-play.js';
import { WatcherCounts } from './watcher-counts.js';

/** The video side a spectator needs: a watch grant (the stream is started if it was not). */
export interface WatchVideo {
  watchGrant(playerId: number, machineId: number): Promise<StreamGrant | null>;
}

const WATCHABLE: readonly string[] = [MachineStatus.Playing, MachineStatus.Waiting];

export class Spectators {
  readonly counts: WatcherCounts;

  constructor(
    private readonly deps: {
      db: Queryable;
      bus: Bus;
      video: WatchVideo | null;
      serverId: string;
      maxWatchersPerMachine: number;
      hotLimitCents: () => number;
    },
  ) {
    this.counts = new WatcherCounts(deps.bus, deps.serverId, deps.maxWatchersPerMachine);
  }

  /**
   * A spectator starts watching: the machine must be played (or waiting for its player) and have
   * room. Takes a watcher place; the caller gives it back with `leave` when the socket closes.
   */
  async start(playerId: number, machineId: number): Promise<{ name: string; stream: StreamGrant | null; watchers: number }> {
    const [machine] = await listMachines(this.deps.db, { hotLimitCents: this.deps.hotLimitCents(), machineId });
    if (!machine) throw new AppError(Code.NotFound, 404);
    if (!WATCHABLE.includes(machine.status)) throw new AppError(Code.NothingToWatch, 409);
    if (!this.counts.tryAdd(machineId)) throw new AppError(Code.WatchersFull, 409, { max: this.counts.limit });
    try {
      const stream = await this.grant(playerId, machineId);
      return { name: machine.name, stream, watchers: this.counts.total(machineId) };
    } catch (error) {
      this.counts.remove(machineId);
      throw error;
    }
  }

  leave(machineId: number): void {
    this.counts.remove(machineId);
  }

  /** A spectator's grant: `role: 'watch'`, short-lived; never a player's grant. */
  grant(playerId: number, machineId: number): Promise<StreamGrant | null> {
    return this.deps.video ? this.deps.video.watchGrant(playerId, machineId) : Promise.resolve(null);
  }

  isWatched(machineId: number): boolean {
    return this.counts.isWatched(machineId);
  }

  /** The machine's public play as it happens (from whichever server records its games). */
  onPlay(machineId: number, handler: (play: PublicPlay) => void): () => void {
    return this.deps.bus.subscribe(playTopic(machineId), (message) => handler(message as PublicPlay));
  }

  close(): void {
    this.counts.close();
  }
}
