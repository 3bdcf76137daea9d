/**
 * A session settled from the server's records (docs/money.md, "The records decide"): used when the
 * meter check finds a cabinet's meters off the records (malfunctions.ts) and when a cash out pays
 * another amount than the records give (money-commands.ts). One transaction, the caller's.
 */
import { ActionCode, type GameCycle } from '@reel/protocol';
import type { Tx } from '../../db/pool.js';
import type { MoveFn } from '../ledger/ledger-service.js';
import { OperationKind } from '../ledger/ledger.js';
import { voidPendingCommands } from './command-repository.js';
import { setMeterFault } from './machine-state.js';
import { logMalfunction, type MalfunctionDetail } from './malfunction-log.js';
import { PROMOTION_COLUMNS, payOut, type PayoutSplit, type PromotionState } from './promotion-wagering.js';
import { EXPECTED_CREDITS_SQL, holdSettledSession } from './session-repository.js';

const REASON_TEXT: Record<MalfunctionDetail['reason'], string> = {
  meters: 'the credit meter does not follow from the recorded games',
  memory: 'the cabinet reported another memory (cleared or swapped)',
  cash_out: 'the cash out paid another amount than the recorded games',
};

interface SettleRequest {
  sessionId: string;
  machineId: number;
  detail: MalfunctionDetail;
  multiplier: number;
  /** The cabinet's own count is trusted too (same memory): the player gets the larger of the two. */
  payLarger: boolean;
  /** The cabinet's last games (its recall), kept with the malfunction for the operator. */
  cabinetGames?: readonly GameCycle[];
}

interface Settlement {
  playerId: number;
  paidCents: number;
  closed: boolean;
  split: PayoutSplit;
}

/**
 * Settles a session from the server's records inside the caller's transaction: the machine
 * account is squared with the house by the recorded game results, commands still pending are
 * voided, and the credits the records give (or the meter's, when larger and trusted) are paid to the
 * wallet as a Hand Pay (5) with the reason, promotion money back to its parts as usual. The session
 * is marked held (`malfunction`) and the finding logged for the operator (`malfunctions`); a second
 * call does nothing. Returns null when there is nothing to settle (closed, or settled before).
 */
export async function settleFromRecords(tx: Tx, move: MoveFn, request: SettleRequest): Promise<Settlement | null> {
  const { sessionId, machineId, detail } = request;
  const { rows } = await tx.query<PromotionState & { player_id: number; status: string; closing: boolean; credits: number; malfunction: unknown }>(
    `SELECT player_id, status, closing, malfunction, ${EXPECTED_CREDITS_SQL} AS credits, ${PROMOTION_COLUMNS}
       FROM slot_sessions WHERE id = $1 FOR UPDATE`,
    [sessionId],
  );
  const session = rows[0];
  if (!session || session.status === 'closed' || session.malfunction !== null) return null;
  const expectedCents = Math.max(0, Number(session.credits));
  const account = await tx.query<{ balance: number }>("SELECT balance FROM accounts WHERE kind = 'machine' AND machine_id = $1 FOR UPDATE", [machineId]);
  const onAccount = account.rows[0]?.balance ?? 0;
  await voidPendingCommands(tx, sessionId);

  const resultCents = expectedCents - onAccount;
  if (resultCents !== 0) {
    await move({
      kind: OperationKind.GameResult,
      from: resultCents > 0 ? { kind: 'house' } : { kind: 'machine', machineId },
      to: resultCents > 0 ? { kind: 'machine', machineId } : { kind: 'house' },
      amountCents: Math.abs(resultCents),
      machineId,
      sessionId,
      tag: 'game results recorded since the last cash out',
    });
  }
  const paidCents = request.payLarger ? Math.max(expectedCents, detail.reportedCents) : expectedCents;
  if (paidCents > expectedCents) {
    // Between the house and the machine only; the audit counts it as an explained result.
    await move({
      kind: OperationKind.MalfunctionAdjustment,
      from: { kind: 'house' },
      to: { kind: 'machine', machineId },
      amountCents: paidCents - expectedCents,
      machineId,
      sessionId,
      tag: `machine malfunction: the meter showed ${paidCents}, the records ${expectedCents}; the player gets the larger`,
    });
  }
  const split = await payOut(tx, move, {
    playerId: session.player_id,
    machineId,
    sessionId,
    key: `malfunction:${sessionId}`,
    cents: paidCents,
    state: session,
    multiplier: request.multiplier,
    cash: { kind: OperationKind.HandPay, actionCode: ActionCode.HandPay, tag: `machine malfunction (${REASON_TEXT[detail.reason]}): credits paid from the game records` },
  });
  const record = { ...detail, paidCents, at: new Date().toISOString() };
  await holdSettledSession(tx, sessionId, paidCents, record);
  await setMeterFault(tx, machineId, { ...record, sessionId });
  await logMalfunction(tx, {
    machineId,
    sessionId,
    playerId: session.player_id,
    detail,
    paidCents,
    adjustmentCents: Math.max(0, paidCents - expectedCents),
    cabinetGames: request.cabinetGames ?? [],
  });
  return { playerId: session.player_id, paidCents, closed: session.closing, split };
}
