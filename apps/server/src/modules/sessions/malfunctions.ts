/**
 * A cabinet whose meters do not follow from the records (meter-check.ts) is a malfunction: its open
 * session is settled from the records and held, and the cabinet stops until an attendant clears it.
 */
import { CabinetState, type MemoryRecall } from '@reel/protocol';
import { withTransaction } from '../../db/pool.js';
import { withMoney } from '../ledger/ledger-service.js';
import { walletBalance } from '../ledger/ledger.js';
import type { LiveSession } from './live-session.js';
import { setCabinetState, setMeterFault } from './machine-state.js';
import { logMalfunction, type MalfunctionDetail } from './malfunction-log.js';
import { settleFromRecords } from './records-settlement.js';
import type { SessionEnd } from './session-end.js';
import { closeHeldSession } from './session-repository.js';
import type { SessionBase } from './session-base.js';
import { malfunctionInfo } from './session-views.js';
import { COMMAND_TIMEOUT_MS } from './types.js';

interface Kit extends SessionBase {
  end: Pick<SessionEnd, 'forget'>;
  /** Promotion money counts as cash after bets of this many times its amount (docs/money.md). */
  wagerMultiplier: number;
}

export class Malfunctions {
  constructor(private readonly kit: Kit) {}

  /** The meter check's verdict; runs inside the machine's money queue. */
  async onMeterFault(machineId: number, detail: MalfunctionDetail, recall: MemoryRecall) {
    const { kit } = this;
    console.warn(`[sessions] machine ${machineId}: meters do not follow from the records (${detail.reason}: meter ${detail.reportedCents}, records ${detail.expectedCents})`);
    const live = kit.floor.onMachine(machineId);
    // The cabinet's own count is trusted only when it is the memory verified before.
    const sameMemory = detail.reason !== 'memory' && (detail.previousMemoryId ?? recall.memoryId) === recall.memoryId;
    const settlement = live
      ? await withMoney(kit, (tx, move) =>
          settleFromRecords(tx, move, { sessionId: live.id, machineId, detail, multiplier: kit.wagerMultiplier, payLarger: sameMemory, cabinetGames: recall.games }),
        )
      : null;
    if (!settlement) {
      // Nothing to settle (credits nobody owns, or a session settled before): logged all the same.
      await withTransaction(kit.db, async (tx) => {
        await setMeterFault(tx, machineId, { ...detail, sessionId: live?.id ?? null, at: new Date().toISOString() });
        await logMalfunction(tx, { machineId, sessionId: live?.id ?? null, playerId: live?.playerId ?? null, detail, paidCents: null, adjustmentCents: 0, cabinetGames: recall.games });
      });
    }
    // The credits the player was paid for leave the meter (only the memory the server knows; the
    // credits of an unknown memory stay for the attendant), then the cabinet stops in malfunction.
    if (settlement && sameMemory && recall.meters.creditsCents > 0) {
      await kit.cabinets.sendCommand(machineId, { type: 'cash_out', commandId: `clear-${live!.id}` }, { timeoutMs: COMMAND_TIMEOUT_MS }).catch((e) => kit.warn(e, 'meter clear'));
    }
    await this.faultMachine(machineId);
    if (settlement) await this.afterSettlement(machineId, live, settlement.paidCents, settlement.closed);
    else await kit.lobby.publish(machineId);
  }

  /** The cabinet stops in malfunction (kept in its memory) until an attendant clears it. */
  async faultMachine(machineId: number) {
    const { kit } = this;
    await kit.cabinets
      .sendCommand(machineId, { type: 'set_fault', fault: 'malfunction', commandId: `fault-${machineId}-${Date.now()}` }, { timeoutMs: COMMAND_TIMEOUT_MS })
      .catch((e) => kit.warn(e, 'set fault'));
    await setCabinetState(kit.db, machineId, CabinetState.Malfunction);
  }

  /** Tells the player what happened and holds (or closes) the session. */
  async afterSettlement(machineId: number, live: LiveSession | undefined, paidCents: number, closed: boolean) {
    const { kit } = this;
    if (live) {
      live.held = { amountCents: paidCents };
      live.status = live.disconnectedAtMs ? 'disconnected' : 'active';
      const balance = await walletBalance(kit.db, live.playerId);
      kit.floor.send(live.playerId, 'info', malfunctionInfo(paidCents));
      kit.floor.send(live.playerId, 'cashedOut', { amountCents: paidCents, balanceCents: balance.balance });
      kit.views.pushMachine(machineId);
      if (closed) await kit.end.forget(live, 'closed');
      else {
        await kit.views.pushSession(live);
        kit.views.notifySession(live, kit.views.presence(live));
      }
    }
    await kit.lobby.publish(machineId);
  }

  /** A held session has nothing left on the machine: closing it only closes the row. */
  async closeHeld(live: LiveSession) {
    await closeHeldSession(this.kit.db, live.id);
    await this.kit.end.forget(live, 'closed');
  }
}
