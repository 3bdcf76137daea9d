/** The console's money pages: ledger accounts and transfers, the ledger audit, jackpot pools. */
import { Type, type Static } from 'typebox';
import { Cents, IsoDate, Nullable } from './rest-fields.js';
import { Int4 } from './text.js';
import { AdminPageQuery, AdminResult } from './admin-fields.js';

export const LedgerAccountKind = Type.Union([
  Type.Literal('wallet'),
  Type.Literal('machine'),
  Type.Literal('house'),
  Type.Literal('cashier'),
  Type.Literal('promotions'),
]);

export const LedgerAccountsQuery = Type.Object(
  { kind: Type.Optional(LedgerAccountKind), player_id: Type.Optional(Int4({ minimum: 1 })), ...AdminPageQuery },
  { $id: 'LedgerAccountsQuery' },
);
export type LedgerAccountsQuery = Static<typeof LedgerAccountsQuery>;

export const LedgerAccountRow = Type.Object(
  {
    id: Type.Integer(),
    kind: Type.String(),
    part: Nullable(Type.String({ description: 'Wallet part: cash, credit, bonus, discount' })),
    player_id: Nullable(Type.Integer()),
    username: Nullable(Type.String()),
    machine_id: Nullable(Type.Integer()),
    balance: Cents('Balance'),
  },
  { $id: 'LedgerAccountRow' },
);
export type LedgerAccountRow = Static<typeof LedgerAccountRow>;

export const LedgerAccountPage = AdminResult({ items: Type.Array(LedgerAccountRow), total: Type.Integer() }, 'LedgerAccountPage');
export type LedgerAccountPage = Static<typeof LedgerAccountPage>;

export const LedgerTransfersQuery = Type.Object(
  {
    account_id: Type.Optional(Type.Integer({ minimum: 1 })),
    player_id: Type.Optional(Int4({ minimum: 1 })),
    ...AdminPageQuery,
  },
  { $id: 'LedgerTransfersQuery' },
);
export type LedgerTransfersQuery = Static<typeof LedgerTransfersQuery>;

/** One ledger operation with its postings (they sum to zero). */
export const LedgerTransferRow = Type.Object(
  {
    id: Type.Integer(),
    at: IsoDate('Booked'),
    kind: Type.String(),
    action_code: Nullable(Type.Integer()),
    player_id: Nullable(Type.Integer()),
    machine_id: Nullable(Type.Integer()),
    session_id: Nullable(Type.String()),
    amount: Cents('Amount moved'),
    tag: Nullable(Type.String()),
    idempotency_key: Nullable(Type.String()),
    entries: Type.Array(Type.Object({ account_id: Type.Integer(), amount: Cents('Signed posting') })),
  },
  { $id: 'LedgerTransferRow' },
);
export type LedgerTransferRow = Static<typeof LedgerTransferRow>;

export const LedgerTransferPage = AdminResult({ items: Type.Array(LedgerTransferRow), total: Type.Integer() }, 'LedgerTransferPage');
export type LedgerTransferPage = Static<typeof LedgerTransferPage>;

/** `npm run operator -- audit` as an answer. */
export const LedgerAuditResponse = AdminResult(
  {
    ok: Type.Boolean(),
    total: Cents('Sum of every posting (0 when balanced)'),
    unbalanced: Type.Integer({ description: 'Operations whose postings do not sum to zero' }),
    drifted: Type.Integer({ description: 'Accounts whose balance is not the sum of their postings' }),
    negative: Type.Integer({ description: 'Accounts below zero' }),
    malfunctions: Type.Integer({ description: 'Malfunctions on record (settled; each needs a look)' }),
    players: Type.Array(
      Type.Object({
        playerId: Type.Integer(),
        username: Type.String(),
        walletCents: Type.Integer(),
        onMachinesCents: Type.Integer(),
        expectedCents: Type.Integer(),
      }),
    ),
  },
  'LedgerAuditResponse',
);
export type LedgerAuditResponse = Static<typeof LedgerAuditResponse>;

export const JackpotPoolRow = Type.Object(
  {
    brand_id: Type.Integer(),
    brand: Type.String(),
    level: Type.Integer(),
    seed: Cents('Reset amount'),
    amount: Cents('Current pool'),
  },
  { $id: 'JackpotPoolRow' },
);
export const JackpotPoolsResponse = AdminResult({ items: Type.Array(JackpotPoolRow) }, 'JackpotPoolsResponse');
export type JackpotPoolsResponse = Static<typeof JackpotPoolsResponse>;
