/**
 * The operator console's contract (issue 27): operator roles, sign-in, and the schemas of every
 * route under `/api/admin/`. Operators are accounts of their own (table `operators`), never
 * players: an operator token is refused on player routes and a player token on admin routes (403,
 * 40304). Every action names a `reason`, and writes one row of the audit trail (docs/operator.md).
 * Paths are relative to the API base, like `ApiPath`.
 */
import { Type, type Static } from 'typebox';
import { IsoDate, Nullable } from './rest-fields.js';
import { Text } from './text.js';
import { AdminPageQuery, AdminResult, OperatorRoleSchema, OperatorStatusSchema, ReasonField, type OperatorRole } from './admin-fields.js';

export * from './admin-fields.js';
export * from './admin-players.js';
export * from './admin-money.js';
export * from './admin-protection.js';

/** The audit trail's actor of a command-line action: `cli:<os user>`; of a console action: `operator:<username>`. */
export const AUDIT_ACTOR_PREFIX = { operator: 'operator:', cli: 'cli:' } as const;

export const AdminPath = {
  login: '/admin/auth/login',
  me: '/admin/auth/me',
  logout: '/admin/auth/logout',
  operators: '/admin/operators',
  operatorRole: '/admin/operators/:id/role',
  operatorStatus: '/admin/operators/:id/status',
  players: '/admin/players',
  player: '/admin/players/:id',
  playerDeposit: '/admin/players/:id/deposit',
  playerWithdraw: '/admin/players/:id/withdraw',
  playerBan: '/admin/players/:id/ban',
  playerUnban: '/admin/players/:id/unban',
  playerPassword: '/admin/players/:id/password',
  playerPin: '/admin/players/:id/pin',
  playerUnlock: '/admin/players/:id/unlock',
  playerNotes: '/admin/players/:id/notes',
  playerProtection: '/admin/players/:id/protection',
  playerEndSelfExclusion: '/admin/players/:id/end-self-exclusion',
  ledgerAccounts: '/admin/ledger/accounts',
  ledgerTransfers: '/admin/ledger/transfers',
  ledgerAudit: '/admin/ledger/audit',
  jackpots: '/admin/jackpots',
  audit: '/admin/audit',
  auditVerify: '/admin/audit/verify',
} as const;

// --- Operators and sign-in ------------------------------------------------------------------

export const OperatorView = Type.Object(
  {
    id: Type.Integer(),
    username: Type.String(),
    role: OperatorRoleSchema,
    status: OperatorStatusSchema,
    created_at: IsoDate('Account created'),
    last_login_at: Nullable(IsoDate('Last successful sign-in')),
  },
  { $id: 'OperatorView' },
);
export type OperatorView = Static<typeof OperatorView>;

export const AdminLoginRequest = Type.Object(
  { username: Text({ minLength: 1, maxLength: 64 }), password: Text({ minLength: 1, maxLength: 256 }) },
  { $id: 'AdminLoginRequest' },
);
export type AdminLoginRequest = Static<typeof AdminLoginRequest>;

export const AdminLoginResponse = AdminResult(
  { token: Type.String({ description: 'Bearer token for /api/admin only' }), operator: OperatorView },
  'AdminLoginResponse',
);
export type AdminLoginResponse = Static<typeof AdminLoginResponse>;

/** `GET /admin/auth/me`: who the token belongs to, with the role the database holds now. */
export const AdminMeResponse = AdminResult({ operator: OperatorView }, 'AdminMeResponse');
export type AdminMeResponse = Static<typeof AdminMeResponse>;

/** Claims of an operator token (JWT header `typ: operator+jwt`; player routes refuse it). */
export interface OperatorClaims {
  sub: string;
  /** The operator's id. */
  id: number;
  jti: string;
  username: string;
  role: OperatorRole;
  iat: number;
  exp: number;
}

export const OperatorListResponse = AdminResult({ items: Type.Array(OperatorView) }, 'OperatorListResponse');
export type OperatorListResponse = Static<typeof OperatorListResponse>;

export const CreateOperatorRequest = Type.Object(
  {
    username: Text({ minLength: 3, maxLength: 64, pattern: '^[A-Za-z0-9._-]+$' }),
    password: Text({ minLength: 8, maxLength: 256 }),
    role: OperatorRoleSchema,
    ...ReasonField,
  },
  { $id: 'CreateOperatorRequest' },
);
export type CreateOperatorRequest = Static<typeof CreateOperatorRequest>;

export const OperatorResponse = AdminResult({ operator: OperatorView }, 'OperatorResponse');
export type OperatorResponse = Static<typeof OperatorResponse>;

export const SetOperatorRoleRequest = Type.Object({ role: OperatorRoleSchema, ...ReasonField }, { $id: 'SetOperatorRoleRequest' });
export type SetOperatorRoleRequest = Static<typeof SetOperatorRoleRequest>;

export const SetOperatorStatusRequest = Type.Object(
  { status: OperatorStatusSchema, ...ReasonField },
  { $id: 'SetOperatorStatusRequest' },
);
export type SetOperatorStatusRequest = Static<typeof SetOperatorStatusRequest>;

// --- Audit trail ----------------------------------------------------------------------------

export const AuditRow = Type.Object(
  {
    seq: Type.Integer(),
    at: IsoDate('When'),
    actor: Type.String({ description: '`operator:<username>`, `cli:<os user>` or `system`' }),
    action: Type.String({ description: 'e.g. player.deposit, player.ban, operator.create' }),
    target: Type.String({ description: 'e.g. player:3, operator:2' }),
    before: Type.Unknown(),
    after: Type.Unknown(),
    reason: Type.String(),
    prev_hash: Type.String({ description: 'hex SHA-256 of the row before (64 zeros for the first)' }),
    hash: Type.String({ description: 'hex SHA-256(prev_hash ‖ canonical JSON of this row)' }),
  },
  { $id: 'AuditRow' },
);
export type AuditRow = Static<typeof AuditRow>;

export const AuditQuery = Type.Object(
  {
    actor: Type.Optional(Text({ maxLength: 100 })),
    action: Type.Optional(Text({ maxLength: 100, description: 'Exact, or a prefix ending in "." (player.)' })),
    target: Type.Optional(Text({ maxLength: 100 })),
    from: Type.Optional(Type.String({ format: 'date-time' })),
    to: Type.Optional(Type.String({ format: 'date-time' })),
    ...AdminPageQuery,
  },
  { $id: 'AuditQuery' },
);
export type AuditQuery = Static<typeof AuditQuery>;

export const AuditPage = AdminResult({ items: Type.Array(AuditRow), total: Type.Integer() }, 'AuditPage');
export type AuditPage = Static<typeof AuditPage>;

/** The chain verifier's answer (the same as `npm run operator -- verify-audit`). */
export const AuditVerifyResponse = AdminResult(
  {
    ok: Type.Boolean(),
    rows: Type.Integer({ description: 'Rows checked' }),
    head_seq: Type.Integer({ description: 'Last seq in the table (0: empty)' }),
    signed_seq: Type.Integer({ description: 'Highest seq covered by a valid head signature' }),
    first_bad_seq: Nullable(Type.Integer()),
    problem: Nullable(Type.String({ description: 'What is wrong at first_bad_seq' })),
  },
  'AuditVerifyResponse',
);
export type AuditVerifyResponse = Static<typeof AuditVerifyResponse>;
