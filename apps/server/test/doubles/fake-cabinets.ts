/**
 * An in-memory stand-in for the agent hub, for session tests: cabinets with a credit meter that
 * run each command id at most once (as real cabinets do), and a spin whose win the test decides.
 * `restart` reconnects a cabinet with its memory; `wipe` reconnects it with a cleared one.
 */
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { isFaultCabinetState, type AgentMachineState, type CommandResult, type GameCycle, type MachineMeters } from '@reel/protocol';
import { DEFAULT_QUALITY_BANDS } from '@reel/protocol';
import type { AgentHubEvents, CommandInput, ConnectedMachine } from '../../src/modules/cabinets/agent-hub.js';
import type { CabinetPort } from '../../src/modules/sessions/types.js';

interface FakeMachine {
  state: AgentMachineState;
  videoError: string | null;
  /** Held by staff (the reason), as a real cabinet keeps it in its critical memory. */
  emergencyStop: string | null;
  meters: MachineMeters;
  info: { betLevels: number[]; bands: typeof DEFAULT_QUALITY_BANDS extends readonly (infer B)[] ? B[] : never; videoType: 'screen' };
  results: Map<string, CommandResult>;
  memoryId: string;
  games: GameCycle[];
}

export class FakeCabinets extends EventEmitter<AgentHubEvents> implements CabinetPort {
  readonly machines = new Map<number, FakeMachine>();
  readonly commands: { machineId: number; type: string; commandId: string }[] = [];
  /** The next spins' wins in cents (0 when empty). */
  nextWins: number[] = [];
  jackpotNext = false;
  /** Free spins the next paid spin awards: the machine is then in its bonus round (busy). */
  freeSpinsNext = 0;
  refuseCreditIn = false;
  /** Runs as a cash out arrives, before the cabinet pays (a game that finishes just before it). */
  beforeCashOut: (() => void) | null = null;
  unreachable = false;

  connect(machineId: number, creditsCents = 0) {
    const machine: FakeMachine = {
      state: 'idle',
      videoError: null,
      emergencyStop: null,
      meters: {
        creditsCents, coinInCents: 0, coinOutCents: 0, cashInCents: 0, cashOutCents: 0, gamesPlayed: 0, gamesWon: 0,
        freeGamesPlayed: 0, bonusTriggers: 0, jackpotHits: 0, betCents: 100, betLevel: 0, autoplay: false, freeSpinsLeft: 0,
      },
      info: { betLevels: [100, 200, 500], bands: DEFAULT_QUALITY_BANDS.map((b) => ({ ...b })), videoType: 'screen' },
      results: new Map(),
      memoryId: randomUUID(),
      games: [],
    };
    this.machines.set(machineId, machine);
    this.announce(machineId, machine);
  }

  private announce(machineId: number, machine: FakeMachine) {
    this.emit('connected', this.connected(machineId, machine));
  }

  private connected(machineId: number, machine: FakeMachine): ConnectedMachine {
    return { machineId, agentId: 'fake', state: 'idle', videoError: null, emergencyStop: machine.emergencyStop, meters: machine.meters, info: { protocol: 1, ...machine.info, lines: 20 } as never, connectedAtMs: Date.now() };
  }

  /** The connected machines, as the agent hub lists them (a cluster server's relay republishes them). */
  list(): ConnectedMachine[] {
    return [...this.machines].map(([machineId, machine]) => this.connected(machineId, machine));
  }

  disconnect(machineId: number) {
    this.machines.delete(machineId);
    this.emit('disconnected', { machineId });
  }

  /** The cabinet process restarts: same memory (meters, games, applied ids), new connection. */
  restart(machineId: number) {
    const machine = this.machines.get(machineId)!;
    this.disconnect(machineId);
    this.machines.set(machineId, machine);
    this.announce(machineId, machine);
  }

  /** The cabinet comes back with a cleared memory (or another cabinet took its place). */
  wipe(machineId: number) {
    const machine = this.machines.get(machineId)!;
    this.disconnect(machineId);
    const m = machine.meters;
    Object.assign(m, { creditsCents: 0, coinInCents: 0, coinOutCents: 0, cashInCents: 0, cashOutCents: 0, gamesPlayed: 0, gamesWon: 0, autoplay: false, freeSpinsLeft: 0 });
    machine.results = new Map();
    machine.games = [];
    machine.memoryId = randomUUID();
    machine.state = 'idle';
    this.machines.set(machineId, machine);
    this.announce(machineId, machine);
  }

  isConnected(machineId: number) {
    return this.machines.has(machineId);
  }

  get(machineId: number) {
    return this.machines.get(machineId);
  }

  /** The games whose storage the server acknowledged, per machine. */
  readonly acknowledged: { machineId: number; gameId: string }[] = [];
  acknowledgeCycle(machineId: number, gameId: string) {
    this.acknowledged.push({ machineId, gameId });
  }

  async sendCommand(machineId: number, input: CommandInput): Promise<CommandResult> {
    const machine = this.machines.get(machineId);
    if (!machine || this.unreachable) throw new Error('not connected');
    const commandId = input.commandId ?? Math.random().toString(36);
    const earlier = machine.results.get(commandId);
    if (earlier) return { ...earlier, duplicate: true };
    this.commands.push({ machineId, type: input.type, commandId });
    const m = machine.meters;
    let result: CommandResult = { commandId, type: input.type, outcome: 'ok', creditsCents: m.creditsCents };
    const faulted = isFaultCabinetState(machine.state);
    if (machine.emergencyStop !== null) {
      result = { ...result, outcome: 'rejected', reason: 'emergency_stop' };
    } else if (faulted && (input.type === 'credit_in' || input.type === 'cash_out' || input.type === 'spin')) {
      result = { ...result, outcome: 'rejected', reason: 'faulted' };
    } else if (input.type === 'recall') {
      result = {
        ...result,
        recall: { memoryId: machine.memoryId, state: machine.state, meters: { ...m }, games: machine.games.slice(-10), incompleteGame: null },
      };
    } else if (input.type === 'stop') {
      m.autoplay = false;
    } else if (input.type === 'set_fault') {
      const previous = machine.state;
      machine.state = input.fault === 'none' ? 'idle' : input.fault;
      this.emit('state', { machineId, state: machine.state, previous, atMs: Date.now() });
    } else if (input.type === 'credit_in') {
      if (this.refuseCreditIn) result = { ...result, outcome: 'rejected', reason: 'faulted' };
      else {
        m.creditsCents += input.amountCents;
        m.cashInCents += input.amountCents;
      }
    } else if (input.type === 'cash_out' && (machine.state === 'in_bonus' || machine.state === 'in_game')) {
      // As the cabinet: no cash out in the middle of a game or bonus round.
      result = { ...result, outcome: 'rejected', reason: 'busy' };
    } else if (input.type === 'cash_out') {
      this.beforeCashOut?.();
      const amountCents = m.creditsCents;
      m.cashOutCents += amountCents;
      m.creditsCents = 0;
      result = { ...result, amountCents };
    } else if (input.type === 'spin') {
      if (m.creditsCents < m.betCents) result = { ...result, outcome: 'rejected', reason: 'insufficient_credits' };
      else result = { ...result, cycle: this.play(machineId, machine) };
    } else if (input.type === 'set_bet_level') {
      m.betLevel = input.level;
      m.betCents = machine.info.betLevels[input.level] ?? m.betCents;
    } else if (input.type === 'autoplay') {
      m.autoplay = input.on;
    }
    result.creditsCents = m.creditsCents;
    // As the cabinet: a busy refusal is not remembered; the same id is run when sent again.
    if (result.reason !== 'busy') machine.results.set(commandId, result);
    return result;
  }

  /**
   * The cabinet's autoplay plays its next game by itself (no command); false when autoplay is off
   * or the credits do not cover the bet (autoplay then ends, as on the cabinet).
   */
  autoSpin(machineId: number) {
    const machine = this.machines.get(machineId);
    if (!machine?.meters.autoplay) return false;
    if (machine.meters.creditsCents < machine.meters.betCents) {
      machine.meters.autoplay = false;
      return false;
    }
    this.play(machineId, machine);
    return true;
  }

  private play(machineId: number, machine: FakeMachine): GameCycle {
    const m = machine.meters;
    const win = this.nextWins.shift() ?? 0;
    const awarded = this.freeSpinsNext;
    this.freeSpinsNext = 0;
    const cycle: GameCycle = {
      gameId: `${machineId}-${m.gamesPlayed + 1}`, betCents: m.betCents, winCents: win, symbols: [['CHERRY']], lineWins: [],
      scatterCount: 0, scatterWinCents: 0, creditsBeforeCents: m.creditsCents, creditsAfterCents: m.creditsCents - m.betCents + win,
      freeSpin: false, freeSpinsAwarded: awarded, freeSpinsLeft: awarded, jackpotHit: this.jackpotNext, startedAtMs: Date.now(), endedAtMs: Date.now(),
    };
    this.jackpotNext = false;
    m.coinInCents += m.betCents;
    m.gamesPlayed += 1;
    m.freeSpinsLeft = awarded;
    if (awarded > 0) machine.state = 'in_bonus';
    return this.pay(machineId, machine, cycle);
  }

  /** The cabinet plays its bonus round's next free spin by itself; the round ends after the last. */
  freeSpin(machineId: number, winCents: number): GameCycle {
    const machine = this.machines.get(machineId)!;
    const m = machine.meters;
    m.freeSpinsLeft -= 1;
    m.freeGamesPlayed += 1;
    const cycle: GameCycle = {
      gameId: `${machineId}-${m.gamesPlayed}-f${m.freeGamesPlayed}`, betCents: 0, winCents, symbols: [['CHERRY']], lineWins: [],
      scatterCount: 0, scatterWinCents: 0, creditsBeforeCents: m.creditsCents, creditsAfterCents: m.creditsCents + winCents,
      freeSpin: true, freeSpinsAwarded: 0, freeSpinsLeft: m.freeSpinsLeft, jackpotHit: false, startedAtMs: Date.now(), endedAtMs: Date.now(),
    };
    // As the cabinet: idle before the last free spin's report reaches the server.
    if (m.freeSpinsLeft === 0) machine.state = 'idle';
    return this.pay(machineId, machine, cycle);
  }

  private pay(machineId: number, machine: FakeMachine, cycle: GameCycle): GameCycle {
    const m = machine.meters;
    m.creditsCents = cycle.creditsAfterCents;
    m.coinOutCents += cycle.winCents;
    machine.games.push(cycle);
    this.emit('cycle', { machineId, cycle });
    return cycle;
  }

  /** As the agent client: the cabinet keeps the stop and reports it with its state. */
  sendEmergencyStop(machineId: number, stop: { reason: string } | null) {
    const machine = this.machines.get(machineId);
    if (!machine) return false;
    machine.emergencyStop = stop?.reason ?? null;
    this.emit('state', { machineId, state: machine.state, previous: machine.state, atMs: Date.now(), ...(stop ? { emergencyStop: stop.reason } : {}) });
    return true;
  }

  setState(machineId: number, state: AgentMachineState, videoError: string | null = null) {
    const machine = this.machines.get(machineId);
    if (machine) {
      machine.state = state;
      machine.videoError = videoError;
    }
    this.emit('state', { machineId, state, previous: null, atMs: Date.now(), ...(videoError ? { videoError } : {}) });
  }
}
