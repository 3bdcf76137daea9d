/**
 * The parts every session room may use: the stores, the cabinets, and what the players and the
 * lobbies are shown. All of them lie below every room, so a room that takes them calls nothing
 * above itself. The rooms above the money road get these and more in the kit (session-kit.ts).
 */
import type { Db } from '../../db/pool.js';
import type { Bus } from '../../lib/bus.js';
import type { LobbyStatus } from './lobby-status.js';
import type { SessionFloor } from './session-floor.js';
import type { SessionViews } from './session-views.js';
import type { CabinetPort } from './types.js';

export interface SessionBase {
  db: Db;
  bus: Bus;
  cabinets: CabinetPort;
  floor: SessionFloor;
  views: SessionViews;
  lobby: LobbyStatus;
  /** Logs a failure of background work (background-work.ts). */
  warn: (error: unknown, where: string) => void;
}
