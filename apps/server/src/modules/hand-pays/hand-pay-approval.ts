/**
 * Staff approve a hand pay. One transaction holds the hand pay's row lock, moves its state
 * (waiting → paid, once: a second approval finds it paid and answers 40907), pays the player
 * through the ledger (house → wallet, idempotent by the hand pay's id) and writes the approval's
 * audit row; a crash anywhere inside leaves it paid once or not at all. A hand pay at or above
 * HAND_PAY_SECOND_SIGNER is paid only at the second approval, which must come from another staff
 * member than the first (40306; the table's CHECK refuses it too).
 */
import { ActionCode, Code, type HandPayView } from '@reel/protocol';
import type { Db } from '../../db/pool.js';
import type { Bus } from '../../lib/bus.js';
import { AppError } from '../../lib/errors.js';
import { appendAudit } from '../audit/audit-log.js';
import { withMoney } from '../ledger/ledger-service.js';
import { OperationKind } from '../ledger/ledger.js';
import type { StaffActor } from '../operator-actions/actor.js';
import { requireReason } from '../audit/audit-actor.js';
import { listHandPays, lockHandPay, markHandPayPaid, signFirst, type HandPayRow } from './hand-pay-repository.js';

interface ApprovalDeps {
  db: Db;
  bus: Bus;
  /** After a payment: the machine's lock and lobby status follow, the player is told. */
  paid: (handPay: { machineId: number; playerId: number; amountCents: number }) => Promise<void>;
}

export async function handPayQueue(db: Db, status: 'waiting' | 'paid' | undefined): Promise<HandPayView[]> {
  return (await listHandPays(db, status)).map((row) => toView(row, row.username, row.machine_name));
}

export async function approveHandPay(deps: ApprovalDeps, staff: StaffActor, id: number, reasonText: string | undefined) {
  const reason = requireReason(reasonText);
  const signer = staff.actor;
  const outcome = await withMoney(deps, async (tx, move) => {
    const row = await lockHandPay(tx, id);
    if (!row) throw new AppError(Code.NotFound, 404);
    if (row.status !== 'waiting') throw new AppError(Code.HandPayNotWaiting, 409);
    const target = `hand_pay:${id}`;
    const before = { status: row.status, firstSigner: row.first_signer };
    if (row.needs_second && row.first_signer === null) {
      await signFirst(tx, id, signer);
      await appendAudit(tx, { actor: signer, action: 'hand_pay.first_approval', target, before, after: { status: 'waiting', firstSigner: signer }, reason });
      return { paid: false, row: { ...row, first_signer: signer, first_signed_at: new Date() } };
    }
    if (row.needs_second && row.first_signer === signer) throw new AppError(Code.SecondSignerSame, 403);
    const signers = row.needs_second ? { first: row.first_signer!, second: signer } : { first: signer, second: null };
    if (!(await markHandPayPaid(tx, id, signers))) throw new AppError(Code.HandPayNotWaiting, 409);
    await move({
      kind: OperationKind.HandPay,
      actionCode: ActionCode.HandPay,
      playerId: row.player_id,
      idempotencyKey: `hand-pay:${id}`,
      from: { kind: 'house' },
      to: { kind: 'wallet', playerId: row.player_id },
      amountCents: row.amount_cents,
      machineId: row.machine_id,
      sessionId: row.session_id,
      tag: `hand pay approved by ${[signers.first, signers.second].filter(Boolean).join(' and ')}`,
    });
    await appendAudit(tx, {
      actor: signer,
      action: 'hand_pay.paid',
      target,
      before,
      after: { status: 'paid', firstSigner: signers.first, secondSigner: signers.second, amountCents: row.amount_cents },
      reason,
    });
    return { paid: true, row: { ...row, status: 'paid' as const, first_signer: signers.first, second_signer: signers.second, paid_at: new Date() } };
  });
  if (outcome.paid) await deps.paid({ machineId: outcome.row.machine_id, playerId: outcome.row.player_id, amountCents: outcome.row.amount_cents });
  const [view] = (await listHandPays(deps.db, undefined)).filter((row) => row.id === id);
  return { paid: outcome.paid, handPay: toView(view ?? outcome.row, view?.username ?? '', view?.machine_name ?? '') };
}

function toView(row: HandPayRow, username: string, machineName: string): HandPayView {
  return {
    id: row.id,
    machineId: row.machine_id,
    machineName,
    playerId: row.player_id,
    username,
    amountCents: row.amount_cents,
    status: row.status,
    needsSecond: row.needs_second,
    requestedAt: row.requested_at.toISOString(),
    firstSigner: row.first_signer,
    secondSigner: row.second_signer,
    paidAt: row.paid_at?.toISOString() ?? null,
  };
}
