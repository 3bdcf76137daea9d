/** The simulated cabinet's events, timings and options: what its parts and its listeners share. */
import type { AgentMachineState, CabinetFault, CabinetState, GameCycle, MachineMeters } from '@reel/protocol';
import type { MemoryStore } from './critical-memory.js';
import type { SpinEvaluation } from './engine.js';
import type { Rng } from './rng.js';

export const SoundCue = {
  Spin: 'spin',
  ReelStop: 'reel_stop',
  Win: 'win',
  BigWin: 'big_win',
  Bonus: 'bonus',
  Credit: 'credit',
  CashOut: 'cash_out',
} as const;
export type SoundCue = (typeof SoundCue)[keyof typeof SoundCue];

export interface ActiveSpin {
  evaluation: SpinEvaluation;
  startedAtMs: number;
  /** Epoch ms at which each reel lands. */
  reelStopAtMs: number[];
  freeSpin: boolean;
  winCents: number;
}

export interface MachineTiming {
  /** Time until the first reel lands. */
  spinDurationMs: number;
  /** Extra time per following reel. */
  reelStaggerMs: number;
  /** Pause between autoplay spins and between free spins (win display). */
  autoplayGapMs: number;
  cashOutDurationMs: number;
}
export const DEFAULT_TIMING: MachineTiming = {
  spinDurationMs: 900,
  reelStaggerMs: 180,
  autoplayGapMs: 700,
  cashOutDurationMs: 600,
};

export interface MachineStateEvent {
  state: AgentMachineState;
  previous: AgentMachineState | null;
  reason?: string;
  /** Set while the video cannot start (see setVideoFault); the state is then at least 'error'. */
  videoError?: string;
  /** Set while staff hold the machine with an emergency stop (their reason). */
  emergencyStop?: string;
}

export interface MachineEvents {
  state: [MachineStateEvent];
  cycle: [GameCycle];
  meters: [MachineMeters];
  spin: [ActiveSpin];
  sound: [SoundCue];
}

/** What the machine does when nothing stopped it; a fault and being offline override it. */
export type BaseState = Exclude<CabinetState, CabinetFault | 'offline'>;
export type Fault = CabinetFault | null;

export interface SlotMachineOptions {
  machineId: number;
  rng?: Rng;
  timing?: Partial<MachineTiming>;
  nowMs?: () => number;
  initialBetLevel?: number;
  /** Where the critical memory lives; default: only in this process (lost on exit). */
  memory?: MemoryStore;
  /** A commit of the critical memory failed: the machine has stopped (fault `error`). */
  onMemoryFailure?: (error: unknown) => void;
}
