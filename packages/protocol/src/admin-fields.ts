/** Field shapes the admin contract's files share. */
import { Type, type Static, type TSchema } from 'typebox';
import { ResultFields } from './rest.js';
import { Int4, Text } from './text.js';

/** What an operator may do: `admin` everything, `staff` the floor and support (docs/spec-decisions.md). */
export const OperatorRole = { Admin: 'admin', Staff: 'staff' } as const;
export type OperatorRole = (typeof OperatorRole)[keyof typeof OperatorRole];
export const OPERATOR_ROLES: readonly OperatorRole[] = [OperatorRole.Admin, OperatorRole.Staff];

/** A disabled operator cannot sign in, and the tokens it holds stop working at once. */
export const OperatorStatus = { Active: 'active', Disabled: 'disabled' } as const;
export type OperatorStatus = (typeof OperatorStatus)[keyof typeof OperatorStatus];

export const AdminResult = <P extends Record<string, TSchema>>(properties: P, id: string) =>
  Type.Object({ ...ResultFields, ...properties }, { $id: id });

export const OperatorRoleSchema = Type.Union([Type.Literal(OperatorRole.Admin), Type.Literal(OperatorRole.Staff)]);
export const OperatorStatusSchema = Type.Union([
  Type.Literal(OperatorStatus.Active),
  Type.Literal(OperatorStatus.Disabled),
]);

/** Why an operator acts. Optional in the schema so a missing one is the catalogue's 40003, not a bare 40000. */
export const REASON_MAX_LENGTH = 500;
export const ReasonField = {
  reason: Type.Optional(Text({ maxLength: REASON_MAX_LENGTH, description: 'Why (required, not blank): goes into the audit trail' })),
};
export const ReasonRequest = Type.Object(ReasonField, { $id: 'AdminReasonRequest' });
export type ReasonRequest = Static<typeof ReasonRequest>;

export const AdminIdParams = Type.Object({ id: Int4({ minimum: 1 }) });
export type AdminIdParams = Static<typeof AdminIdParams>;

/** Offset paging of the console's lists; `total` answers how many match. */
export const AdminPageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
};

