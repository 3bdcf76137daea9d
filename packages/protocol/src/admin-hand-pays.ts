/**
 * The console's hand pay queue (issue 27): wins at or above HAND_PAY_LIMIT wait here with their
 * machine locked until staff approve; at or above HAND_PAY_SECOND_SIGNER a second, different staff
 * member approves too. Paths are relative to the API base, like `AdminPath`; every route is STAFF.
 */
import { Type, type Static } from 'typebox';
import { ReasonField } from './admin-fields.js';
import { IsoDate, Nullable } from './rest-fields.js';

export const AdminHandPayPath = {
  list: '/admin/hand-pays',
  approve: '/admin/hand-pays/:id/approve',
} as const;

export const HandPayStatus = Type.Union([Type.Literal('waiting'), Type.Literal('paid')]);
export type HandPayStatus = Static<typeof HandPayStatus>;

export const HandPayView = Type.Object(
  {
    id: Type.Integer(),
    machineId: Type.Integer(),
    machineName: Type.String(),
    playerId: Type.Integer(),
    username: Type.String(),
    amountCents: Type.Integer(),
    status: HandPayStatus,
    /** Two different staff members must approve. */
    needsSecond: Type.Boolean(),
    requestedAt: IsoDate('Won at'),
    /** The audit trail's name of who signed: `operator:<username>`. */
    firstSigner: Nullable(Type.String()),
    secondSigner: Nullable(Type.String()),
    paidAt: Nullable(IsoDate('Paid at')),
  },
  { $id: 'HandPayView' },
);
export type HandPayView = Static<typeof HandPayView>;

export const HandPayListQuery = Type.Object({ status: Type.Optional(HandPayStatus) }, { additionalProperties: false });
export type HandPayListQuery = Static<typeof HandPayListQuery>;
export const HandPayParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
export const HandPayApproveRequest = Type.Object(ReasonField, { additionalProperties: false });
export type HandPayApproveRequest = Static<typeof HandPayApproveRequest>;
/** `paid`: this approval paid it; false: the first of two signatures is recorded, a second staff member must approve. */
export const HandPayApproveResult = Type.Object({ paid: Type.Boolean(), handPay: HandPayView });
export type HandPayApproveResult = Static<typeof HandPayApproveResult>;
