import type { AgentMachineState, AutoplayStops, CommandResult, GameServerEvents, MachineMeters, QualityBand, SessionNotification, StreamGrant, VideoType } from '@reel/protocol';
import type { AgentHubEvents, CommandInput } from '../cabinets/agent-hub.js';

/** How long the server waits for a cabinet's answer to a command. */
export const COMMAND_TIMEOUT_MS = 8_000;

/** What the session manager needs from the cabinets (the agent hub provides it). */
export interface CabinetPort {
  isConnected(machineId: number): boolean;
  get(machineId: number):
    | {
        state: AgentMachineState;
        /** Set while the machine's video cannot start (see AgentClientEvents['state'].videoError). */
        videoError?: string | null;
        /** The staff's reason while an emergency stop holds the cabinet. */
        emergencyStop?: string | null;
        meters: MachineMeters | null;
        info: { betLevels: number[]; bands: QualityBand[]; videoType: VideoType; headless?: boolean };
      }
    | undefined;
  sendCommand(machineId: number, input: CommandInput, opts?: { timeoutMs?: number }): Promise<CommandResult>;
  /**
   * Stops (with the staff's reason) or releases the cabinet; false when it is not connected here
   * (the recorded stop reaches it at its next authentication). Absent where cabinets are relayed.
   */
  sendEmergencyStop?(machineId: number, stop: { reason: string } | null): boolean;
  /** The game's cycle is stored (its transaction committed): the cabinet may forget it. */
  acknowledgeCycle(machineId: number, gameId: string): void;
  /** Whether this port drives the machine (a shard's part of the cluster); absent: every machine. */
  owns?(machineId: number): boolean;
  on<E extends keyof AgentHubEvents>(event: E, listener: (...args: AgentHubEvents[E]) => void): unknown;
  off<E extends keyof AgentHubEvents>(event: E, listener: (...args: AgentHubEvents[E]) => void): unknown;
}

/** What the session manager needs from the media part: a short-lived grant to watch one machine. */
export interface VideoPort {
  grant(playerId: number, machineId: number): Promise<StreamGrant | null>;
  setBand?(machineId: number, bandId: string): Promise<void>;
}

/** One player's live game socket. */
export interface GameConnection {
  send<E extends keyof GameServerEvents>(event: E, data: GameServerEvents[E]): void;
  close(code: number, reason: string): void;
}

export interface SessionTimers {
  /** How long a dropped player's session and credits wait for them. */
  graceMs: number;
  /** With no credits on the machine for this long, the deposit countdown (18800) starts. */
  noCreditsTimeoutMs: number;
  /** With credits but no play for this long, the continue countdown (18802) starts. */
  idleTimeoutMs: number;
  /** Seconds of SESSION_CLOSE_WARNING countdown before CLOSE_SESSION (the spec's first count is 10). */
  countdownS: number;
}

/**
 * What the game and REST routes ask of sessions: the session manager itself in one process, or in
 * a cluster a client that asks the server owning the sessions (cluster/session-rpc.ts).
 */
export interface SessionService {
  join(playerId: number, machineId: number, conn: GameConnection): Promise<unknown>;
  disconnect(playerId: number, conn: GameConnection): Promise<void>;
  leave(playerId: number): Promise<void>;
  kick(playerId: number, machineId: number, ip: string): Promise<void>;
  cancel(playerId: number, machineId: number): Promise<void>;
  cashIn(playerId: number, amountCents: number, idempotencyKey: string): Promise<void>;
  cashOut(playerId: number): Promise<void>;
  spin(playerId: number, commandId: string): Promise<unknown>;
  setBetLevel(playerId: number, commandId: string, level: number): Promise<unknown>;
  autoplay(playerId: number, commandId: string, on: boolean, stops?: AutoplayStops): Promise<unknown>;
  renewStream(playerId: number): Promise<void>;
  setBand(playerId: number, bandId: string): Promise<void>;
  setVideoType(playerId: number, videoType: VideoType): Promise<void>;
  openSessionOf(playerId: number): SessionNotification | null | Promise<SessionNotification | null>;
}
