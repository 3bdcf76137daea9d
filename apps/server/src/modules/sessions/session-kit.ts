/**
 * What the session rooms above the money road share (the rooms below take `SessionBase`). The
 * manager builds one kit; each room takes only the parts it uses (its constructor's `Pick`), so a
 * room's needs read from its signature. Everything here lies below the rooms that use it: no part
 * calls back up to the manager.
 */
import type { Db } from '../../db/pool.js';
import type { Bus } from '../../lib/bus.js';
import type { Protection } from '../protection/protection.js';
import type { MachineQueue } from '../queue/machine-queue.js';
import type { AutoplayWatch } from './autoplay-watch.js';
import type { RuntimeSettings } from '../settings/runtime-settings.js';
import type { CommandOutbox } from './command-outbox.js';
import type { CycleOrder } from './cycle-order.js';
import type { MeterGuard } from './meter-check.js';
import type { SessionBase } from './session-base.js';
import type { SessionTimers, VideoPort } from './types.js';

/** What the session manager needs from the server: the database, the bus and two settings. */
export interface SessionDeps {
  db: Db;
  bus: Bus;
  config: { settingsFile: string; promotions: { wagerMultiplier: number } };
  /** Player protection: asked before a cash in or a spin is written or sent. */
  protection: Protection;
  /** The queue for a busy machine: its clock runs with the sessions; it hears a freed machine and a seat taken. */
  queue?: SessionQueue;
}

/** What the sessions ask of the queue (modules/queue, below the sessions). */
export type SessionQueue = Pick<MachineQueue, 'startClock' | 'stopClock' | 'machineFreed' | 'seated'>;

export interface SessionKit extends SessionBase {
  /** The runtime settings (Settings.json), cached until the file changes. */
  settings: () => RuntimeSettings;
  video: VideoPort;
  timers: SessionTimers;
  /** The machine's money commands, end to end. */
  outbox: CommandOutbox;
  /** The order of each machine's game records: a play command waits for the games reported before it. */
  order: Pick<CycleOrder, 'recorded'>;
  meters: MeterGuard;
  protection: Protection;
  /** Autoplay's games: the checks between them and the player's own stops. */
  autoplayWatch: AutoplayWatch;
  queue: SessionQueue | undefined;
}
