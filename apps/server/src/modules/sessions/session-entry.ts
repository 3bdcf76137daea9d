/**
 * Joining and leaving a machine: join or resume (one live game socket per player), a dropped
 * socket (the grace period starts), and the reconnect dialog's kick and cancel.
 */
import { bandsAtFps, Code, isPlayableCabinetState, LogType, SessionAction, WsCloseCode } from '@reel/protocol';
import { withTransaction } from '../../db/pool.js';
import { writeAuthLog } from '../auth/auth-log.js';
import { DEFAULT_BANDS } from '../machines/lobby.js';
import type { SessionKit } from './session-kit.js';
import { markActivity, markDisconnected, openSession } from './session-repository.js';
import { info, malfunctionInfo, sessionViewOf } from './session-views.js';
import type { GameConnection } from './types.js';

type Kit = Pick<SessionKit, 'db' | 'settings' | 'cabinets' | 'video' | 'floor' | 'views' | 'lobby' | 'queue'>;

export class SessionEntry {
  constructor(private readonly kit: Kit) {}

  /**
   * Joins (or resumes) the player's session on a machine and makes `conn` the player's one live
   * game connection; an older connection gets QUIT_REQUEST.
   */
  async join(playerId: number, machineId: number, conn: GameConnection) {
    const { kit } = this;
    const settings = kit.settings();
    const cabinet = kit.cabinets.get(machineId);
    const cabinetReady = Boolean(cabinet && isPlayableCabinetState(cabinet.state));
    const { session, resumed, machineName, seated } = await withTransaction(kit.db, (tx) =>
      openSession(tx, { playerId, machineId, cabinetReady, allowZeroBalance: settings.ALLOW_0_BALANCE_TO_PLAY }),
    );
    const live = kit.floor.sessions.get(session.id) ?? kit.floor.remember(session, machineName);
    live.status = live.status === 'cashing_out' ? 'cashing_out' : 'active';
    live.disconnectedAtMs = null;
    live.lastCountSent = null;
    kit.floor.touch(live);

    const previous = kit.floor.connectionOf(playerId);
    if (previous && previous.conn !== conn) {
      previous.conn.send('info', info(Code.SessionTerminated, {}, SessionAction.QuitRequest));
      previous.conn.send('closed', { reason: SessionAction.QuitRequest, code: Code.SessionTerminated });
      previous.conn.close(WsCloseCode.QuitRequest, SessionAction.QuitRequest);
    }
    kit.floor.connect(playerId, conn, live.id);

    const stream = await kit.video.grant(playerId, machineId).catch(() => null);
    // Cabinets report their bands at BASE_FPS; the FPS setting scales them (the cabinet encodes the same).
    const machine = kit.views.machineView(machineId);
    kit.views.sentMachineView(playerId, machine);
    const bands = bandsAtFps(cabinet?.info.bands?.length ? cabinet.info.bands : DEFAULT_BANDS, settings.FPS);
    conn.send('joined', {
      machineId,
      name: machineName,
      videoType: machine.videoType,
      bands,
      activeBand: [...bands].sort((a, b) => b.Order - a.Order)[0]!.id,
      stream,
      betLevels: cabinet?.info.betLevels ?? [],
      machine,
      // The row the join just wrote: no second read on the way to the player's first frame.
      session: sessionViewOf(session),
      resumed,
    });
    await kit.lobby.publish(machineId);
    // The player came from the machine's queue: their entry is used up, the line moves up.
    if (seated) await kit.queue?.seated(machineId, playerId);
    kit.views.notifySession(live, 'open');
    if (live.held) conn.send('info', malfunctionInfo(live.held.amountCents));
    return live;
  }

  /** The game socket dropped: the session and credits wait for the player for the grace period. */
  async disconnect(playerId: number, conn: GameConnection) {
    const { kit } = this;
    const entry = kit.floor.release(playerId, conn);
    if (!entry) return;
    const live = kit.floor.sessions.get(entry.sessionId);
    if (!live || live.closing) return;
    if (live.status === 'active') live.status = 'disconnected';
    live.disconnectedAtMs = Date.now();
    await markDisconnected(kit.db, live.id);
    await kit.lobby.publish(live.machineId);
    kit.views.notifySession(live, 'disconnected');
  }

  /**
   * The reconnect dialog's "kick": ends the player's other live game connection (another tab or
   * device) so this one can take over.
   */
  async kick(playerId: number, machineId: number, ip: string) {
    const { kit } = this;
    kit.floor.playerSessionOn(playerId, machineId); // 40404 unless the player holds this machine
    const entry = kit.floor.connectionOf(playerId);
    if (entry) {
      entry.conn.send('info', info(Code.SessionTerminated, {}, SessionAction.QuitRequest));
      entry.conn.close(WsCloseCode.QuitRequest, SessionAction.QuitRequest);
      await this.disconnect(playerId, entry.conn);
    }
    await writeAuthLog(kit.db, { playerId, type: LogType.KickedByPlayer, ip, detail: { machineId } });
  }

  /**
   * Staff sent the player away (the console's kick): the player's game connection gets
   * QUIT_REQUEST and closes; the session waits in grace like any dropped one, credits kept.
   * Answers the player, or null when nobody holds the machine.
   */
  async kickByStaff(machineId: number): Promise<number | null> {
    const live = this.kit.floor.onMachine(machineId);
    if (!live) return null;
    const entry = this.kit.floor.connectionOf(live.playerId);
    if (entry?.sessionId === live.id) {
      entry.conn.send('info', info(Code.SessionTerminated, { by: 'staff' }, SessionAction.QuitRequest));
      entry.conn.send('closed', { reason: SessionAction.QuitRequest, code: Code.SessionTerminated });
      entry.conn.close(WsCloseCode.QuitRequest, SessionAction.QuitRequest);
      await this.disconnect(live.playerId, entry.conn);
    }
    return live.playerId;
  }

  /**
   * The reconnect dialog's "cancel": stops a pending close (countdown) and makes the session ready
   * to be joined again; the web app then rejoins with its token.
   */
  async cancel(playerId: number, machineId: number) {
    const live = this.kit.floor.playerSessionOn(playerId, machineId);
    this.kit.floor.touch(live);
    if (live.status === 'disconnected') live.disconnectedAtMs = Date.now();
    await markActivity(this.kit.db, live.id);
  }
}
