/**
 * The machine's money commands end to end: this room writes each `machine_commands` row (in the
 * transaction of its ledger side), sends it to the cabinet through the agent hub with the row's id,
 * and books what the cabinet answered. The cabinet runs an id at most once and answers a repeat
 * with the first result, so a command left pending by a dropped socket or a killed server is simply
 * sent again, and nothing is paid twice.
 *
 * The road is one-way: the session rooms above call in (session-money.ts, game-cycles.ts to take a
 * hand pay off the meter, the meter check for pending commands); this room calls only rooms below it (the game
 * records' order, the ledger, the malfunction verdict, the session's end, the player's screen) and
 * never back up.
 */
import { Code, type CommandResult } from '@reel/protocol';
import { withTransaction, type Tx } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import { waitingHandPayMachines } from '../hand-pays/hand-pay-repository.js';
import { withMoney } from '../ledger/ledger-service.js';
import { walletBalance } from '../ledger/ledger.js';
import { insertCashOut, markDone, handPaysBefore, pendingCommand, pendingCommands, readCommand, type OutboxCommand } from './command-repository.js';
import type { CycleOrder } from './cycle-order.js';
import type { LiveSession } from './live-session.js';
import type { Malfunctions } from './malfunctions.js';
import { refundCreditIn, writeCashIn, writeCashOut } from './money-commands.js';
import type { SessionEnd } from './session-end.js';
import { startCashOut } from './session-repository.js';
import type { SessionBase } from './session-base.js';
import { COMMAND_TIMEOUT_MS } from './types.js';

interface OutboxDeps extends Omit<SessionBase, 'lobby'> {
  /** Every game the machine played before paying is recorded before the payment is booked. */
  order: Pick<CycleOrder, 'settled'>;
  malfunctions: Pick<Malfunctions, 'faultMachine' | 'afterSettlement'>;
  end: Pick<SessionEnd, 'forget'>;
  /** Promotion money counts as cash after bets of this many times its amount (docs/money.md). */
  wagerMultiplier: number;
  /** HAND_PAY_SECOND_SIGNER: a hand pay at or above it needs a second staff signature. */
  secondSignerCents: () => number;
}

interface CashInRequest {
  live: LiveSession;
  amountCents: number;
  idempotencyKey: string;
  /** MAX_ALL_IN_LIMIT */
  limitCents: number;
  /** The player's own limits, checked inside the cash in's transaction before money moves. */
  checkLimits: (tx: Tx) => Promise<void>;
}

export class CommandOutbox {
  /** Money commands on one machine run one after another. */
  private readonly queues = new Map<number, Promise<unknown>>();

  constructor(private readonly deps: OutboxDeps) {}

  /** Runs `work` after every earlier money work of the machine has finished. */
  onMachine<T>(machineId: number, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(machineId) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(work);
    this.queues.set(machineId, next.catch(() => {}));
    return next;
  }

  pendingCommand(sessionId: string, type: string) {
    return pendingCommand(this.deps.db, sessionId, type);
  }

  /**
   * Cash In (3), in the machine's queue: wallet → machine account and the `credit_in` row in one
   * transaction (the limit checked under the session row's lock), then the command.
   */
  cashIn({ live, amountCents, idempotencyKey, limitCents, checkLimits }: CashInRequest): Promise<void> {
    const { deps } = this;
    return this.onMachine(live.machineId, async () => {
      const commandId = await withMoney(deps, (tx, move) =>
        writeCashIn(tx, move, {
          playerId: live.playerId,
          machineId: live.machineId,
          sessionId: live.id,
          amountCents,
          idempotencyKey,
          limitCents,
          checkLimits,
          meterCents: deps.cabinets.get(live.machineId)?.meters?.creditsCents ?? 0,
          multiplier: deps.wagerMultiplier,
        }),
      );
      await this.run(commandId);
    });
  }

  /**
   * The session goes to `cashing_out` and its cash out command is written: one transaction.
   * Undefined when the session closed meanwhile (another path finished the close).
   */
  async beginCashOut(live: LiveSession, closing: boolean) {
    const commandId = await withTransaction(this.deps.db, async (tx) => {
      const cashouts = await startCashOut(tx, live.id, closing);
      // Closed meanwhile: no second cash out on a closed row.
      if (cashouts === undefined) return undefined;
      const id = `co-${live.id}-${cashouts}`;
      await insertCashOut(tx, { commandId: id, machineId: live.machineId, sessionId: live.id, playerId: live.playerId });
      return id;
    });
    if (!commandId) return undefined;
    live.status = 'cashing_out';
    live.closing ||= closing;
    return commandId;
  }

  /** Sends an outbox command to its cabinet and books the result. Safe to call again for the same id. */
  async run(commandId: string): Promise<void> {
    const command = await readCommand(this.deps.db, commandId);
    if (!command || command.status !== 'pending') return;
    // A cash out waits behind the machine's hand pay written before it: the hand pay takes the meter
    // first (the win held, the rest paid out); while the cabinet refuses it (busy in the bonus round
    // the win started) the cash out stays pending too. A hand pay written after the cash out (its
    // game was played before the cabinet ran the cash out) is taken over by the cash out's booking.
    if (command.type === 'cash_out') for (const handPayId of await handPaysBefore(this.deps.db, command.machine_id, commandId)) await this.run(handPayId);
    let result: CommandResult;
    try {
      result = await this.deps.cabinets.sendCommand(
        command.machine_id,
        // A hand pay is a cash out whose winning part the attendant pays by hand.
        command.type === 'credit_in' ? { type: 'credit_in', amountCents: command.amount_cents!, commandId } : { type: 'cash_out', commandId },
        { timeoutMs: COMMAND_TIMEOUT_MS },
      );
    } catch {
      // Still pending: sent again when the cabinet reconnects or at the next try.
      throw new AppError(Code.MachineNoAnswer, 503);
    }
    if (command.type === 'credit_in') return this.bookCreditIn(command, result);
    await this.deps.order.settled(command.machine_id);
    await this.bookCashOut(command, result);
  }

  /** Re-sends every pending command of a machine (after a reconnect or restart), in its queue. */
  async flush(machineId: number) {
    if (!this.deps.cabinets.isConnected(machineId)) return;
    await this.onMachine(machineId, () => this.runPending(machineId)).catch((e) => this.deps.warn(e, 'flush'));
  }

  /** The pending commands of a machine, oldest first; the caller holds the machine's queue. */
  async runPending(machineId: number) {
    for (const commandId of await pendingCommands(this.deps.db, machineId)) await this.run(commandId).catch((e) => this.deps.warn(e, 'flush'));
  }

  private async bookCreditIn(command: OutboxCommand, result: CommandResult) {
    const { deps } = this;
    if (result.outcome === 'ok') {
      await markDone(deps.db, command.command_id);
      return;
    }
    // The cabinet refused the credits: the money goes back to the wallet parts it came from.
    await withMoney(deps, (tx, move) => refundCreditIn(tx, move, command, `refused by the machine: ${result.reason ?? result.outcome}`, deps.wagerMultiplier));
    throw new AppError(Code.MachineNotAvailable, 409);
  }

  /**
   * Books what a cash out (or hand pay) took off the meter. When the cabinet paid something else
   * than the records give, the machine is in malfunction and the session is settled from the records.
   */
  private async bookCashOut(command: OutboxCommand, result: CommandResult) {
    const { deps } = this;
    if (result.outcome !== 'ok') {
      // Kept pending and sent again with the same id: the machine pays once it can.
      deps.warn(new Error(`machine ${command.machine_id} refused cash out ${command.command_id}: ${result.outcome} ${result.reason ?? ''}`), 'cash out');
      throw new AppError(Code.MachineNotAvailable, 409);
    }
    const paidCents = result.amountCents ?? 0;
    const booked = await withMoney(deps, (tx, move) => writeCashOut(tx, move, command, paidCents, deps.wagerMultiplier, deps.secondSignerCents()));
    // The lock follows the records again (a hand pay the meter could not cover holds nothing).
    deps.floor.setHandPayLocks(await waitingHandPayMachines(deps.db), command.machine_id);
    if (booked === null) return;
    const live = deps.floor.sessions.get(command.session_id);
    if (booked.malfunction) {
      console.warn(`[sessions] machine ${command.machine_id}: cash out ${command.command_id} paid ${paidCents}, the records give another amount; settled from the records`);
      await deps.malfunctions.faultMachine(command.machine_id);
      await deps.malfunctions.afterSettlement(command.machine_id, live, booked.paidCents, booked.closed);
      return;
    }
    const balance = await walletBalance(deps.db, command.player_id);
    deps.floor.send(command.player_id, 'cashedOut', { amountCents: paidCents, balanceCents: balance.balance });
    if (!live) return;
    if (booked.closed) {
      await deps.end.forget(live, 'closed');
    } else {
      live.status = live.disconnectedAtMs ? 'disconnected' : 'active';
      await deps.views.pushSession(live);
    }
  }
}
