/** What the player's game socket and notification channel are shown of a machine and a session. */
import { CabinetState, Code, formatCents, messageFor, type MachineView, type SessionNotification, type SessionView } from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';
import { Topic, type Bus } from '../../lib/bus.js';
import type { LiveSession, SessionRow } from './live-session.js';
import type { SessionFloor } from './session-floor.js';
import { readSessionRow } from './session-repository.js';
import type { CabinetPort } from './types.js';

export class SessionViews {
  /** The machine view each machine's player last got, so an unchanged view is not sent again. */
  private readonly lastMachineView = new Map<number, { playerId: number; json: string }>();

  constructor(private readonly deps: { db: Queryable; bus: Bus; cabinets: CabinetPort; floor: SessionFloor }) {}

  machineView(machineId: number): MachineView {
    const cabinet = this.deps.cabinets.get(machineId);
    const meters = cabinet?.meters;
    return {
      machineId,
      cabinetState: cabinet?.state ?? CabinetState.Offline,
      creditsCents: meters?.creditsCents ?? 0,
      betCents: meters?.betCents ?? 0,
      betLevel: meters?.betLevel ?? 0,
      autoplay: meters?.autoplay ?? false,
      freeSpinsLeft: meters?.freeSpinsLeft ?? 0,
      // A cabinet whose video is a real camera shows nothing else; a drawn one shows the player's choice.
      videoType: cabinet?.info.videoType === 'camera' ? 'camera' : (this.deps.floor.onMachine(machineId)?.videoType ?? 'screen'),
      ...(cabinet?.videoError ? { videoError: Code.PipelineFailed } : cabinet?.info.headless ? { videoError: Code.MachineWithoutVideo } : {}),
      ...(cabinet?.emergencyStop ? { emergencyStop: cabinet.emergencyStop } : {}),
    };
  }

  /**
   * The machine's view to the player holding it, if anyone does, when it changed: a spin moves the
   * cabinet's state and meters several times, and the command's answer asks for a push too.
   */
  pushMachine(machineId: number) {
    const live = this.deps.floor.onMachine(machineId);
    if (!live) return;
    // A cabinet that has just (re)connected has not told its meters yet: its view would show the
    // player no credits. They follow its state at once, and their event pushes the view.
    const cabinet = this.deps.cabinets.get(machineId);
    if (cabinet && cabinet.state !== CabinetState.Offline && !cabinet.meters) return;
    const view = this.machineView(machineId);
    if (!this.sentMachineView(live.playerId, view)) return;
    this.deps.floor.send(live.playerId, 'machine', view);
  }

  /** Records the view as the one the player has; false when they have it already. */
  sentMachineView(playerId: number, view: MachineView) {
    const json = JSON.stringify(view);
    const last = this.lastMachineView.get(view.machineId);
    if (last?.playerId === playerId && last.json === json) return false;
    this.lastMachineView.set(view.machineId, { playerId, json });
    return true;
  }

  async sessionView(sessionId: string): Promise<SessionView> {
    return sessionViewOf(await readSessionRow(this.deps.db, sessionId));
  }

  async pushSession(live: LiveSession) {
    if (!this.deps.floor.isConnected(live.playerId)) return;
    this.deps.floor.send(live.playerId, 'session', await this.sessionView(live.id));
  }

  /** 'open' while the player plays on a live socket, else 'disconnected' (the reconnect dialog). */
  presence(live: LiveSession): SessionNotification['status'] {
    return live.status === 'active' && this.deps.floor.isConnected(live.playerId) ? 'open' : 'disconnected';
  }

  sessionNotification(live: LiveSession, status: SessionNotification['status']): SessionNotification {
    const { cabinets } = this.deps;
    return {
      status,
      name: live.machineName,
      id: live.machineId,
      machine_status: (cabinets.get(live.machineId)?.state ?? (cabinets.isConnected(live.machineId) ? 'unknown' : CabinetState.Offline)) as SessionNotification['machine_status'],
      session_id: live.id,
    };
  }

  notifySession(live: LiveSession, status: SessionNotification['status']) {
    this.deps.bus.publish(Topic.player(live.playerId), { event: 'session', data: this.sessionNotification(live, status) });
  }
}

/**
 * An `info` message of the game channel: a catalogue code, its parameters and the spec's action.
 * Money parameters (`amount`) travel as integer cents; only the English text shows them as money.
 */
export function info(code: number, params: Record<string, number | string>, action: string) {
  const text = typeof params.amount === 'number' ? { ...params, amount: formatCents(params.amount) } : params;
  return { code, params, message: messageFor(code, 'en', text) ?? '', action };
}

/** The notice of a held session: the machine's meters disagreed and the records paid `amountCents`. */
export function malfunctionInfo(amountCents: number) {
  return info(Code.MachineMalfunction, { amount: amountCents }, '');
}

/** The session as the game channel shows it, from its row (e.g. the one a join just wrote). */
export function sessionViewOf(row: SessionRow): SessionView {
  return {
    sessionId: row.id,
    machineId: row.machine_id,
    spins: row.spins,
    freeSpins: row.free_spins,
    cashInCents: row.cash_in_cents,
    cashOutCents: row.cash_out_cents,
    netCents: row.win_cents - row.bet_cents,
    startedAt: row.started_at.toISOString(),
  };
}
