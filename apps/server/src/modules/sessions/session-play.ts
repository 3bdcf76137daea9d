/** Play commands relayed to the cabinet (spin, bet level, autoplay) and the video's stream, band and view. */
import { Code, formatCents, type AutoplayStops, type CommandResult, type VideoType } from '@reel/protocol';
import { AppError } from '../../lib/errors.js';
import { DEFAULT_BANDS } from '../machines/lobby.js';
import type { LiveSession } from './live-session.js';
import { showView } from './cabinet-view.js';
import { refuseWhileStopped } from './machine-locks.js';
import type { SessionKit } from './session-kit.js';
import { checkSpinAllowed } from './spin-check.js';
import { replayRecordedCycle } from './cycle-replay.js';
import { COMMAND_TIMEOUT_MS } from './types.js';

type Kit = Pick<SessionKit, 'db' | 'cabinets' | 'video' | 'floor' | 'views' | 'order' | 'meters' | 'settings' | 'protection' | 'autoplayWatch' | 'warn'>;

type PlayCommand =
  | { type: 'spin'; commandId: string }
  | { type: 'set_bet_level'; level: number; commandId: string }
  | { type: 'autoplay'; on: boolean; commandId: string };

export class SessionPlay {
  constructor(private readonly kit: Kit) {}

  spin(playerId: number, commandId: string) {
    return this.relay(playerId, (id) => ({ type: 'spin', commandId: id }), commandId, (live) => this.mayPlay(live, 'spin'));
  }

  /** Player protection, asked before a spin (or autoplay) is sent (protection.ts `checkSpin`). */
  private mayPlay(live: LiveSession, kind: 'spin' | 'autoplay') {
    return checkSpinAllowed(this.kit, live, kind);
  }

  setBetLevel(playerId: number, commandId: string, level: number) {
    return this.relay(playerId, (id) => ({ type: 'set_bet_level', level, commandId: id }), commandId);
  }

  /** Turning it on with the player's stops: the watch counts its games from here (autoplay-watch.ts). */
  autoplay(playerId: number, commandId: string, on: boolean, stops?: AutoplayStops) {
    const turnOn = async (live: LiveSession) => {
      await this.mayPlay(live, 'autoplay');
      this.kit.autoplayWatch.started(live, stops);
    };
    return this.relay(playerId, (id) => ({ type: 'autoplay', on, commandId: id }), commandId, on ? turnOn : undefined);
  }

  /** A fresh stream grant, for the browser's video reconnect. */
  async renewStream(playerId: number) {
    const live = this.kit.floor.sessionOf(playerId);
    const grant = await this.kit.video.grant(playerId, live.machineId);
    if (!grant) throw new AppError(Code.PipelineFailed, 503);
    this.kit.floor.send(playerId, 'stream', grant);
  }

  async setBand(playerId: number, bandId: string) {
    const live = this.kit.floor.activeSessionOf(playerId);
    const bands = this.kit.cabinets.get(live.machineId)?.info.bands;
    if (!(bands?.length ? bands : DEFAULT_BANDS).some((band) => band.id === bandId)) {
      throw new AppError(Code.InvalidRequest, 400, {}, "Invalid request: bandId is not one of the machine's bands");
    }
    await this.kit.video.setBand?.(live.machineId, bandId);
  }

  /**
   * The player switches the picture between the machine's screen and the camera on the cabinet.
   * Only the player holding the machine may (40404 otherwise); the camera only while SHOW_WEBCAM is
   * on and the cabinet can draw it (40302). The `machine` view answers with the new videoType.
   */
  async setVideoType(playerId: number, videoType: VideoType) {
    const { kit } = this;
    const live = kit.floor.sessionOf(playerId);
    if (live.closing || live.status === 'cashing_out') throw new AppError(Code.SessionTerminated, 409);
    kit.floor.touch(live);
    if (videoType === 'camera' && !kit.settings().SHOW_WEBCAM) throw new AppError(Code.CameraUnavailable, 403);
    if (kit.cabinets.get(live.machineId)?.info.videoType === 'camera') throw new AppError(Code.CameraUnavailable, 403);
    if (live.videoType !== videoType) {
      await showView(kit.cabinets, live.machineId, videoType);
      live.videoType = videoType;
    }
    kit.views.pushMachine(live.machineId);
  }

  /** The cabinet gets the command as `<session id>:<client's command id>`, unique across sessions. */
  private async relay(
    playerId: number,
    command: (commandId: string) => PlayCommand,
    clientCommandId: string,
    allowed?: (live: LiveSession) => Promise<void>,
  ): Promise<CommandResult> {
    const { kit } = this;
    const live: LiveSession = kit.floor.activeSessionOf(playerId);
    refuseWhileStopped(kit.cabinets, live.machineId);
    kit.floor.touch(live);
    // The waits before the command share one COMMAND_TIMEOUT_MS, and the command has its own, so a
    // session's owner answers within twice that (a cluster call waits longer: session-rpc.ts).
    const waitsEnd = Date.now() + COMMAND_TIMEOUT_MS;
    const left = () => Math.max(0, waitsEnd - Date.now());
    // A cabinet that just (re)connected plays only once its meters agree with the records.
    if (!(await kit.meters.whenVerified(live.machineId, left()))) throw new AppError(Code.MachineNotAvailable, 409);
    if (live.held) throw new AppError(Code.MachineMalfunction, 409, { amount: formatCents(live.held.amountCents) });
    // The games reported before this command are recorded first, so the checks see them: a win that
    // locks the machine for a hand pay, a loss that crosses the player's limit. A game reported
    // later is one the cabinet has not had acknowledged, and it refuses a paid game until it is.
    if (!(await kit.order.recorded(live.machineId, left()))) throw new AppError(Code.MachineNotAvailable, 409);
    await allowed?.(live);
    // Asked again after the waits, with nothing awaited before the command goes: a game recorded
    // meanwhile may have locked the machine, or the session may have ended.
    if (kit.floor.activeSessionOf(playerId) !== live) throw new AppError(Code.SessionTerminated, 409);
    let result: CommandResult;
    try {
      result = await kit.cabinets.sendCommand(live.machineId, command(`${live.id}:${clientCommandId}`), { timeoutMs: COMMAND_TIMEOUT_MS });
    } catch {
      throw new AppError(Code.MachineNoAnswer, 503);
    }
    // The command is played: a failed look-up of its record (the database away) must not answer it as failed.
    if (result.duplicate && result.cycle) await replayRecordedCycle(kit, live, result.cycle).catch((error: unknown) => kit.warn(error, 'cycle replay'));
    kit.views.pushMachine(live.machineId);
    return result;
  }
}
