/**
 * One simulated cabinet: credit meter, bet level, game cycles with reel timing, free-spin bonus,
 * autoplay, cash out, faults. The outcome of a game is fixed by the RNG the moment the spin starts
 * (as on a real machine); the reel animation only reveals it.
 *
 * Critical memory (critical-memory.ts): the meters, the fault, the last games, the outbox of games
 * the server has not acknowledged, the game in progress and the ids of applied commands are
 * committed durably
 * - before a credit in or a cash out is answered,
 * - when a game starts: the bet is taken and the outcome drawn, and both are committed before the
 *   reels turn,
 * - when a game ends: its win is paid to the credit meter and committed before the cycle is
 *   reported or the spin answered.
 * A machine started from a memory with a game in progress plays that game again with the committed
 * outcome (the reels turn once more and land on the same stops) and pays it; a bonus round in
 * progress continues with its remaining free spins. Autoplay is not restored.
 *
 * Every finished game enters the outbox with its result and leaves it only when the server
 * acknowledges storing it (`acknowledge`); the agent client sends the outbox again after every
 * reconnect. So a game reaches the records however many games follow it and whatever is killed.
 */
import { BET_LEVELS_CENTS, type AgentCommand, type CommandResult } from '@reel/protocol';
import { MachinePlay } from './machine-play.js';
import { SoundCue } from './machine-types.js';

/** The cabinet as the agent, the stream and the tests drive it: its commands, faults and life. */
export class SlotMachine extends MachinePlay {
  /**
   * Runs a command at most once per commandId (see CommandDeduper). A cash out refused because the
   * machine could not pay just then (a game still landing, a fault) is run again when the server
   * sends it again: the server keeps the same id until the machine pays, so a remembered refusal
   * would hold the player's money on the machine for good. A refused credit in stays refused: the
   * server gives that money back to the wallet.
   */
  execute(command: AgentCommand): Promise<CommandResult> {
    return this.deduper.run(
      command,
      () => this.run(command),
      () => this.meters.creditsCents,
      command.type === 'cash_out',
    );
  }
  /** Extra command kinds handled outside the game (streaming) share the same once-only rule. */
  executeExternal(command: AgentCommand, run: () => Promise<CommandResult>): Promise<CommandResult> {
    return this.deduper.run(command, run, () => this.meters.creditsCents);
  }
  /**
   * The video cannot start (`cause`: the encoder's first error line) or works again (null). A
   * machine nobody can watch is not playable: it reports 'error' until then, refuses spins, credits
   * and autoplay, but still pays out (cash out) so a player's money never stays stuck on it.
   */
  setVideoFault(cause: string | null): void {
    if (this.videoFault === cause) return;
    this.videoFault = cause;
    if (cause !== null) this.setAutoplay(false);
    this.reportState(cause !== null ? `video: ${cause}` : 'video restored');
  }
  /**
   * Staff stop the machine (their reason) or release it (null). While stopped it refuses every game
   * and money command (its video keeps running, so staff can watch it); the stop is committed to
   * the critical memory before it is reported, so a restart keeps it. A bonus round left off
   * continues once released.
   */
  async setEmergencyStop(reason: string | null): Promise<void> {
    if (this.emergencyStop === reason) return;
    this.emergencyStop = reason;
    if (reason !== null) this.setAutoplay(false);
    await this.persist();
    this.reportState(reason === null ? 'emergency stop released' : `emergency stop: ${reason}`);
    if (reason === null && this.base === 'in_bonus' && !this.incomplete && !this.resumeTimer) void this.runBonus();
  }
  setOffline(offline: boolean): void {
    this.offline = offline;
    if (offline) this.setAutoplay(false);
    this.reportState('offline');
    // A bonus round left off while offline continues when the machine is back.
    if (!offline && this.base === 'in_bonus' && !this.incomplete && !this.resumeTimer) void this.runBonus();
  }
  dispose(): void {
    if (this.activeTimer) clearTimeout(this.activeTimer);
    if (this.gapTimer) clearTimeout(this.gapTimer);
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    this.removeAllListeners();
  }
  private result(command: AgentCommand, extra: Partial<CommandResult> = {}): CommandResult {
    return {
      commandId: command.commandId,
      type: command.type,
      outcome: 'ok',
      creditsCents: this.meters.creditsCents,
      ...extra,
    };
  }
  private reject(command: AgentCommand, reason: string): CommandResult {
    return this.result(command, { outcome: 'rejected', reason });
  }

  private async run(command: AgentCommand): Promise<CommandResult> {
    if (this.offline) return this.reject(command, 'offline');
    // Recall only reads the critical memory (the server checks the meters with it before play).
    if (this.emergencyStop !== null && command.type !== 'recall') return this.reject(command, 'emergency_stop');
    switch (command.type) {
      case 'credit_in': {
        if (this.faulted) return this.reject(command, 'faulted');
        if (this.base === 'cashing_out') return this.reject(command, 'busy');
        // Meter and applied id change together and are committed together: after a crash either
        // both are there (a replay gets this answer) or neither (a replay credits once).
        this.meters.creditsCents += command.amountCents;
        this.meters.cashInCents += command.amountCents;
        const result = this.result(command);
        this.applied(command.commandId, result, true);
        await this.persist();
        this.emit('sound', SoundCue.Credit);
        this.emitMeters();
        this.maybeAutoplay();
        return result;
      }
      case 'set_bet_level': {
        const bet = BET_LEVELS_CENTS[command.level];
        if (bet === undefined) return this.reject(command, 'invalid_bet_level');
        if (this.base !== 'idle') return this.reject(command, 'busy');
        this.meters.betLevel = command.level;
        this.meters.betCents = bet;
        const result = this.result(command, { betCents: bet });
        this.applied(command.commandId, result, false);
        await this.persist();
        this.emitMeters();
        return result;
      }
      case 'spin': {
        const refusal = this.spinRefusal();
        if (refusal) return this.reject(command, refusal);
        const cycle = await this.playPaidSpin(command.commandId);
        return this.result(command, { cycle, creditsCents: cycle.creditsAfterCents });
      }
      case 'autoplay':
        if (command.on && this.faulted) return this.reject(command, 'faulted');
        this.setAutoplay(command.on);
        this.maybeAutoplay();
        return this.result(command);
      case 'stop':
        this.setAutoplay(false);
        this.finishActive?.();
        return this.result(command);
      case 'cash_out': {
        if (this.fault) return this.reject(command, 'faulted');
        if (this.base !== 'idle') return this.reject(command, 'busy');
        this.setAutoplay(false);
        this.setBase('cashing_out');
        this.emit('sound', SoundCue.CashOut);
        await new Promise((r) => setTimeout(r, this.timing.cashOutDurationMs));
        const amountCents = this.meters.creditsCents;
        this.meters.creditsCents = 0;
        this.meters.cashOutCents += amountCents;
        const result = this.result(command, { amountCents, creditsCents: 0 });
        this.applied(command.commandId, result, true);
        await this.persist();
        this.emitMeters();
        this.setBase('idle');
        return result;
      }
      case 'set_fault': {
        if (this.halted) return this.reject(command, 'faulted');
        const fault = command.fault === 'none' ? null : command.fault;
        if (fault) this.setAutoplay(false);
        this.fault = fault;
        // Clearing faults clears a video fault too: the next stream_start tries the encoder again.
        if (!fault) this.videoFault = null;
        const result = this.result(command);
        this.applied(command.commandId, result, false);
        await this.persist();
        this.reportState(fault ? `fault:${fault}` : 'fault cleared');
        return result;
      }
      case 'recall':
        await this.ready;
        return this.result(command, { recall: this.recall() });
      default:
        return this.reject(command, 'unsupported');
    }
  }
}
