/**
 * Money on the machine: cash in, cash out, hand pay, and booking what the cabinet answered.
 *
 * The machine's credit meter holds the money on the machine. At cash out the ledger's machine
 * account (the cash-ins) is squared with the house by the recorded game results, never by what the
 * cabinet happens to pay; a cabinet that pays something else is a malfunction (malfunctions.ts).
 * Promotion money keeps its kind through the machine (promotion-wagering.ts).
 */
import { Code, type CommandResult, type GameCycle } from '@reel/protocol';
import { withTransaction } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import { withMoney } from '../ledger/ledger-service.js';
import { walletBalance } from '../ledger/ledger.js';
import { COMMAND_TIMEOUT_MS } from './command-outbox.js';
import type { LiveSession } from './live-session.js';
import type { Malfunctions } from './malfunctions.js';
import { refundCreditIn, writeCashIn, writeCashOut, type OutboxCommand } from './money-commands.js';
import type { SessionKit } from './session-kit.js';
import { startCashOut } from './session-repository.js';
import { info, malfunctionInfo } from './session-views.js';

type Kit = Pick<SessionKit, 'db' | 'bus' | 'settings' | 'cabinets' | 'floor' | 'views' | 'outbox' | 'meters' | 'warn' | 'forget' | 'wagerMultiplier'>;

export class SessionMoney {
  constructor(
    private readonly kit: Kit,
    private readonly malfunctions: Malfunctions,
    /** Resolves once every cycle the machine reported so far is recorded. */
    private readonly cyclesSettled: (machineId: number) => Promise<void>,
  ) {}

  /**
   * Cash In (3): wallet → machine account and a `credit_in` command, in one transaction, then the
   * command. Money commands of a session run one at a time (the machine's queue), and the limit is
   * checked inside the transaction under the session row's lock, against the records (which count
   * cash ins still on their way to the machine) and the meter, whichever is higher.
   */
  async cashIn(playerId: number, amountCents: number, idempotencyKey: string) {
    const { kit } = this;
    const live = kit.floor.activeSessionOf(playerId);
    if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new AppError(Code.InvalidRequest, 400, {}, 'amount must be a positive number of cents');
    if (!kit.cabinets.isConnected(live.machineId)) throw new AppError(Code.MachineNotAvailable, 409);
    if (!(await kit.meters.whenVerified(live.machineId, COMMAND_TIMEOUT_MS))) throw new AppError(Code.MachineNotAvailable, 409);
    const limitCents = kit.settings().MAX_ALL_IN_LIMIT;
    kit.floor.touch(live);
    kit.floor.sendMoneyTransfer(playerId, true);
    try {
      await kit.outbox.onMachine(live.machineId, async () => {
        const commandId = await withMoney(kit, (tx, move) =>
          writeCashIn(tx, move, {
            playerId,
            machineId: live.machineId,
            sessionId: live.id,
            amountCents,
            idempotencyKey: `cashin:${idempotencyKey}`,
            limitCents,
            meterCents: kit.cabinets.get(live.machineId)?.meters?.creditsCents ?? 0,
            multiplier: kit.wagerMultiplier,
          }),
        );
        await kit.outbox.run(commandId);
      });
      const balance = await walletBalance(kit.db, playerId);
      kit.floor.send(playerId, 'cashedIn', { amountCents, balanceCents: balance.balance });
      await kit.views.pushSession(live);
    } finally {
      kit.floor.sendMoneyTransfer(playerId, false);
    }
  }

  /** Cash out everything on the machine to the wallet, exactly once however often it is asked. */
  async cashOut(playerId: number) {
    const live = this.kit.floor.sessionOf(playerId);
    this.kit.floor.touch(live);
    // A held session was paid from the records already.
    if (live.held) {
      this.kit.floor.send(playerId, 'info', malfunctionInfo(live.held.amountCents));
      return;
    }
    await this.settle(live, false);
  }

  /** Pays out what is on the machine (and with `closing`, closes the session once paid). */
  settle(live: LiveSession, closing: boolean): Promise<void> {
    const { kit } = this;
    const run = kit.outbox.onMachine(live.machineId, async () => {
      // Queued behind a cash out that closed the session: nothing is left to settle.
      if (!kit.floor.holds(live)) return;
      if (live.held) {
        if (closing) await this.malfunctions.closeHeld(live);
        return;
      }
      kit.floor.sendMoneyTransfer(live.playerId, true);
      try {
        // Reuse a cash out left pending (crash, timeout); otherwise start a new one, unless there is
        // nothing to pay (a repeated request after the money already went back). A session left in
        // `cashing_out` without a command (a crash before this was one transaction) gets one.
        let commandId = await kit.outbox.pendingCommand(live.id, 'cash_out');
        if (!commandId) {
          const credits = kit.cabinets.get(live.machineId)?.meters?.creditsCents;
          if (!closing && credits === 0 && live.status !== 'cashing_out') return;
          commandId = await this.beginCashOut(live, closing);
          if (!commandId) return;
        }
        await kit.outbox.run(commandId);
      } finally {
        kit.floor.sendMoneyTransfer(live.playerId, false);
      }
    });
    const tracked = run.finally(() => {
      if (live.settleInFlight === tracked) live.settleInFlight = null;
    });
    live.settleInFlight = tracked;
    return tracked;
  }

  /** The session goes to `cashing_out` and its cash out command is written: one transaction. */
  private async beginCashOut(live: LiveSession, closing: boolean) {
    const commandId = await withTransaction(this.kit.db, async (tx) => {
      const cashouts = await startCashOut(tx, live.id, closing);
      // Closed meanwhile (another path finished the close): no second cash out on a closed row.
      if (cashouts === undefined) return undefined;
      const id = `co-${live.id}-${cashouts}`;
      await tx.query("INSERT INTO machine_commands (command_id, machine_id, session_id, player_id, type) VALUES ($1, $2, $3, $4, 'cash_out')", [
        id,
        live.machineId,
        live.id,
        live.playerId,
      ]);
      return id;
    });
    if (!commandId) return undefined;
    live.status = 'cashing_out';
    live.closing ||= closing;
    return commandId;
  }

  /** Books what the cabinet answered to an outbox command (the outbox calls this once per command). */
  async book(command: OutboxCommand, result: CommandResult) {
    if (command.type === 'credit_in') return this.bookCreditIn(command, result);
    // Every game the machine played before paying is recorded before the payment is booked.
    await this.cyclesSettled(command.machine_id);
    await this.bookCashOut(command, result);
  }

  private async bookCreditIn(command: OutboxCommand, result: CommandResult) {
    if (result.outcome === 'ok') {
      await this.kit.outbox.markDone(command.command_id);
      return;
    }
    // The cabinet refused the credits: the money goes back to the wallet parts it came from.
    await withMoney(this.kit, (tx, move) => refundCreditIn(tx, move, command, `refused by the machine: ${result.reason ?? result.outcome}`, this.kit.wagerMultiplier));
    throw new AppError(Code.MachineNotAvailable, 409);
  }

  /**
   * Books what a cash out (or hand pay) took off the meter. When the cabinet paid something else
   * than the records give, the machine is in malfunction and the session is settled from the records.
   */
  private async bookCashOut(command: OutboxCommand, result: CommandResult) {
    const { kit } = this;
    if (result.outcome !== 'ok') {
      // Kept pending and sent again with the same id: the machine pays once it can.
      kit.warn(new Error(`machine ${command.machine_id} refused cash out ${command.command_id}: ${result.outcome} ${result.reason ?? ''}`), 'cash out');
      throw new AppError(Code.MachineNotAvailable, 409);
    }
    const paidCents = result.amountCents ?? 0;
    const booked = await withMoney(kit, (tx, move) => writeCashOut(tx, move, command, paidCents, kit.wagerMultiplier));
    if (booked === null) return;
    const live = kit.floor.sessions.get(command.session_id);
    if (booked.malfunction) {
      console.warn(`[sessions] machine ${command.machine_id}: cash out ${command.command_id} paid ${paidCents}, the records give another amount; settled from the records`);
      await this.malfunctions.faultMachine(command.machine_id);
      await this.malfunctions.afterSettlement(command.machine_id, live, booked.paidCents, booked.closed);
      return;
    }
    const balance = await walletBalance(kit.db, command.player_id);
    kit.floor.send(command.player_id, 'cashedOut', { amountCents: paidCents, balanceCents: balance.balance });
    if (!live) return;
    if (booked.closed) {
      await kit.forget(live, 'closed');
    } else {
      live.status = live.disconnectedAtMs ? 'disconnected' : 'active';
      await kit.views.pushSession(live);
    }
  }

  /**
   * A win above the machine's limit is not left on the meter: like an attendant's hand pay, the
   * credits are taken off and the win is booked as a Hand Pay (action code 5), the rest as a cash out.
   */
  async handPay(live: LiveSession, cycle: GameCycle) {
    const { kit } = this;
    const commandId = `hp-${live.machineId}-${cycle.gameId}-${Math.round(cycle.startedAtMs)}`;
    await kit.db.query(
      `INSERT INTO machine_commands (command_id, machine_id, session_id, player_id, type, amount_cents)
       VALUES ($1, $2, $3, $4, 'hand_pay', $5) ON CONFLICT DO NOTHING`,
      [commandId, live.machineId, live.id, live.playerId, cycle.winCents],
    );
    kit.floor.send(live.playerId, 'info', info(Code.Success, { amount: cycle.winCents }, 'HAND_PAY'));
    await kit.outbox.onMachine(live.machineId, () => kit.outbox.run(commandId)).catch((e) => kit.warn(e, 'hand pay'));
  }
}
