/**
 * What the session rooms above the money road share. The manager builds one kit; each room takes
 * only the parts it uses (its constructor's `Pick`), so a room's needs read from its signature.
 * Everything here lies below the rooms that use it: no part calls back up to the manager.
 */
import type { Db } from '../../db/pool.js';
import type { Bus } from '../../lib/bus.js';
import type { RuntimeSettings } from '../settings/runtime-settings.js';
import type { CommandOutbox } from './command-outbox.js';
import type { LobbyStatus } from './lobby-status.js';
import type { MeterGuard } from './meter-check.js';
import type { SessionFloor } from './session-floor.js';
import type { SessionViews } from './session-views.js';
import type { CabinetPort, SessionTimers, VideoPort } from './types.js';

/** What the session manager needs from the server: the database, the bus and two settings. */
export interface SessionDeps {
  db: Db;
  bus: Bus;
  config: { settingsFile: string; promotions: { wagerMultiplier: number } };
}

export interface SessionKit {
  db: Db;
  bus: Bus;
  /** The runtime settings (Settings.json), cached until the file changes. */
  settings: () => RuntimeSettings;
  cabinets: CabinetPort;
  video: VideoPort;
  timers: SessionTimers;
  floor: SessionFloor;
  views: SessionViews;
  lobby: LobbyStatus;
  /** The machine's money commands, end to end. */
  outbox: CommandOutbox;
  meters: MeterGuard;
  /** Logs a failure of background work (background-work.ts). */
  warn: (error: unknown, where: string) => void;
}
