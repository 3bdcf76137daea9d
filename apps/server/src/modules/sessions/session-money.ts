/**
 * Money on the machine as the player asks for it: cash in and cash out (also the close's cash out).
 *
 * The machine's credit meter holds the money on the machine. Each money command is written, sent
 * and booked by command-outbox.ts, which answers here by returning (or throwing); at cash out the
 * ledger's machine account (the cash-ins) is squared with the house by the recorded game results,
 * never by what the cabinet happens to pay; a cabinet that pays something else is a malfunction
 * (malfunctions.ts). Promotion money keeps its kind through the machine (promotion-wagering.ts).
 */
import { Code } from '@reel/protocol';
import type { Tx } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import { walletBalance } from '../ledger/ledger.js';
import type { LiveSession } from './live-session.js';
import { refuseWhileStopped } from './machine-locks.js';
import type { Malfunctions } from './malfunctions.js';
import type { SessionKit } from './session-kit.js';
import { malfunctionInfo } from './session-views.js';
import { COMMAND_TIMEOUT_MS } from './types.js';

type Kit = Pick<SessionKit, 'db' | 'settings' | 'cabinets' | 'floor' | 'views' | 'outbox' | 'meters' | 'protection'>;

export class SessionMoney {
  constructor(
    private readonly kit: Kit,
    private readonly malfunctions: Pick<Malfunctions, 'closeHeld'>,
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
    refuseWhileStopped(kit.cabinets, live.machineId);
    if (!kit.cabinets.isConnected(live.machineId)) throw new AppError(Code.MachineNotAvailable, 409);
    if (!(await kit.meters.whenVerified(live.machineId, COMMAND_TIMEOUT_MS))) throw new AppError(Code.MachineNotAvailable, 409);
    const limitCents = kit.settings().MAX_ALL_IN_LIMIT;
    kit.floor.touch(live);
    kit.floor.sendMoneyTransfer(playerId, true);
    try {
      // Player protection (a break, the player's own limits) is checked in the cash in's transaction.
      const checkLimits = (tx: Tx) => kit.protection.checkCashIn(tx, playerId, amountCents, live.startedAt);
      await kit.outbox.cashIn({ live, amountCents, idempotencyKey: `cashin:${idempotencyKey}`, limitCents, checkLimits });
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
    // The stopped cabinet would refuse it: cash out is possible again once staff release the stop.
    refuseWhileStopped(this.kit.cabinets, live.machineId);
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
          commandId = await kit.outbox.beginCashOut(live, closing);
          if (!commandId) return;
        }
        // Written, sent and booked (the player hears the booking) before this returns.
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
}
