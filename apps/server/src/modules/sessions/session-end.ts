/**
 * A session is closed: it leaves the floor, the cabinet goes back to its screen, and the lobby and
 * the player hear it. Called by the rooms that close a session (the booking of a closing cash out,
 * a malfunction settlement, a held session's close), below them all, so none calls back up.
 */
import type { SessionNotification } from '@reel/protocol';
import type { Protection } from '../protection/protection.js';
import type { SessionQueue } from './session-kit.js';
import { showView } from './cabinet-view.js';
import type { LiveSession } from './live-session.js';
import type { LobbyStatus } from './lobby-status.js';
import type { SessionFloor } from './session-floor.js';
import type { SessionViews } from './session-views.js';
import type { CabinetPort } from './types.js';

interface EndDeps {
  cabinets: CabinetPort;
  floor: SessionFloor;
  views: SessionViews;
  lobby: LobbyStatus;
  track: (work: Promise<unknown>, where: string) => void;
  /** Player protection keeps a little per session (the spin pace). */
  protection: Pick<Protection, 'sessionClosed'>;
  /** The machine's queue hands the seat to its first in line. */
  queue: Pick<SessionQueue, 'machineFreed'> | undefined;
}

export class SessionEnd {
  constructor(private readonly deps: EndDeps) {}

  async forget(live: LiveSession, status: SessionNotification['status']) {
    const { deps } = this;
    deps.floor.forget(live);
    deps.protection.sessionClosed(live.id);
    // The next player starts on the screen. A cabinet away now goes back to the screen itself when
    // its agent connection drops, so its refusal here is no news.
    if (live.videoType === 'camera') deps.track(showView(deps.cabinets, live.machineId, 'screen').catch(() => {}), 'view');
    await deps.lobby.publish(live.machineId);
    deps.views.notifySession(live, status);
    deps.queue?.machineFreed(live.machineId);
  }
}
