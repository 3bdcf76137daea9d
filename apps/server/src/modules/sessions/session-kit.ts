/**
 * What the session rooms share. The manager builds one kit; each room takes only the parts it
 * uses (its constructor's `Pick`), so a room's needs read from its signature.
 */
import type { Db } from '../../db/pool.js';
import type { Bus } from '../../lib/bus.js';
import type { RuntimeSettings } from '../settings/runtime-settings.js';
import type { CommandOutbox } from './command-outbox.js';
import type { LiveSession } from './live-session.js';
import type { LobbyStatus } from './lobby-status.js';
import type { MeterGuard } from './meter-check.js';
import type { SessionFloor } from './session-floor.js';
import type { SessionViews } from './session-views.js';
import type { CabinetPort, SessionTimers, VideoPort } from './types.js';
import type { SessionNotification } from '@reel/protocol';

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
  /** Promotion money counts as cash after bets of this many times its amount (docs/money.md). */
  wagerMultiplier: number;
  cabinets: CabinetPort;
  video: VideoPort;
  timers: SessionTimers;
  floor: SessionFloor;
  views: SessionViews;
  lobby: LobbyStatus;
  outbox: CommandOutbox;
  meters: MeterGuard;
  warn: (error: unknown, where: string) => void;
  /** Runs `work` in the background; a failure is logged, and `drain()` waits for it. */
  track: (work: Promise<unknown>, where: string) => void;
  /** The session is closed: it leaves the floor, and the lobby and the player hear it. */
  forget: (live: LiveSession, status: SessionNotification['status']) => Promise<void>;
}
