/** The console's player pages and player actions (paths in admin.ts `AdminPath`). */
import { Type, type Static } from 'typebox';
import { IDEMPOTENCY_HEADER } from './paths.js';
import { Cents, IsoDate, Nullable } from './rest-fields.js';
import { SlotSessionRow, TransactionRow } from './rest.js';
import { Text } from './text.js';
import { AdminPageQuery, AdminResult, ReasonField } from './admin-fields.js';

export const AdminPlayersQuery = Type.Object(
  {
    q: Type.Optional(Text({ maxLength: 100, description: 'Part of the username, email or name; or a player id' })),
    ...AdminPageQuery,
  },
  { $id: 'AdminPlayersQuery' },
);
export type AdminPlayersQuery = Static<typeof AdminPlayersQuery>;

export const AdminPlayerSummary = Type.Object(
  {
    id: Type.Integer(),
    username: Type.String(),
    email: Type.String(),
    name: Type.String(),
    lastname: Type.String(),
    banned: Type.Boolean(),
    locked: Type.Boolean({ description: 'Blocked by too many wrong passwords or PINs right now' }),
    blocked_until: Nullable(IsoDate('End of the sign-in block')),
    failed_logins: Type.Integer(),
    pin_set: Type.Boolean(),
    balance: Cents('Total wallet balance'),
    created_at: IsoDate('Account created'),
    last_logon: Nullable(IsoDate('Last successful sign-in')),
    last_logon_ip: Nullable(Type.String()),
  },
  { $id: 'AdminPlayerSummary' },
);
export type AdminPlayerSummary = Static<typeof AdminPlayerSummary>;

export const AdminPlayerList = AdminResult(
  { items: Type.Array(AdminPlayerSummary), total: Type.Integer() },
  'AdminPlayerList',
);
export type AdminPlayerList = Static<typeof AdminPlayerList>;

export const AdminWallet = Type.Object(
  {
    balance: Cents('Total'),
    cash: Cents('Cash part'),
    credit: Cents('Credit part'),
    bonus: Cents('Bonus part'),
    discount: Cents('Discount part'),
    currency: Type.String(),
  },
  { $id: 'AdminWallet' },
);
export type AdminWallet = Static<typeof AdminWallet>;

/** One row of the auth log: sign-ins, checks, logouts, blocks (spec section 3's log types). */
export const LoginLogRow = Type.Object(
  {
    at: IsoDate('When'),
    type: Type.String({ description: 'login success, login fail, temporary blocked, ...' }),
    ip: Nullable(Type.String()),
    detail: Type.Record(Type.String(), Type.Unknown()),
  },
  { $id: 'LoginLogRow' },
);
export type LoginLogRow = Static<typeof LoginLogRow>;

export const PlayerNote = Type.Object(
  { id: Type.Integer(), at: IsoDate('Written'), author: Type.String(), text: Type.String() },
  { $id: 'PlayerNote' },
);
export type PlayerNote = Static<typeof PlayerNote>;

/** `GET /admin/players/:id`: the newest 50 of each list. */
export const AdminPlayerDetail = AdminResult(
  {
    player: AdminPlayerSummary,
    wallet: AdminWallet,
    sessions: Type.Array(SlotSessionRow),
    transactions: Type.Array(TransactionRow),
    logins: Type.Array(LoginLogRow),
    notes: Type.Array(PlayerNote),
  },
  'AdminPlayerDetail',
);
export type AdminPlayerDetail = Static<typeof AdminPlayerDetail>;

/** A money correction: the header's key makes a retry answer the first result instead of moving money again. */
export const AdminMoneyHeaders = Type.Object({
  [IDEMPOTENCY_HEADER]: Text({ minLength: 1, maxLength: 100, description: 'Required: a retry with the same key moves no money again' }),
});
export const AdminMoneyRequest = Type.Object(
  { amount: Type.Integer({ minimum: 1, maximum: 100_000_000_00, description: 'Integer cents' }), ...ReasonField },
  { $id: 'AdminMoneyRequest' },
);
export type AdminMoneyRequest = Static<typeof AdminMoneyRequest>;

export const AdminMoneyResponse = AdminResult(
  {
    operation_id: Type.Integer(),
    replayed: Type.Boolean({ description: 'True: the key was used before; this is that first answer and nothing moved' }),
    wallet: AdminWallet,
  },
  'AdminMoneyResponse',
);
export type AdminMoneyResponse = Static<typeof AdminMoneyResponse>;

export const AdminPasswordRequest = Type.Object(
  { password: Text({ minLength: 1, maxLength: 256 }), ...ReasonField },
  { $id: 'AdminPasswordRequest' },
);
export type AdminPasswordRequest = Static<typeof AdminPasswordRequest>;

export const AdminPinRequest = Type.Object(
  { pin: Type.String({ pattern: '^[0-9]{4,8}$', description: '4 to 8 digits' }), ...ReasonField },
  { $id: 'AdminPinRequest' },
);
export type AdminPinRequest = Static<typeof AdminPinRequest>;

/** A note's text is also its audit reason. */
export const AdminNoteRequest = Type.Object({ text: Text({ maxLength: 2000 }) }, { $id: 'AdminNoteRequest' });
export type AdminNoteRequest = Static<typeof AdminNoteRequest>;

/** The answer of ban, unban, unlock, reset password, set PIN and a note: the player as it is now. */
export const AdminPlayerActionResponse = AdminResult(
  {
    player: AdminPlayerSummary,
    signed_out: Type.Integer({ description: 'Sessions (tokens) ended by this action' }),
  },
  'AdminPlayerActionResponse',
);
export type AdminPlayerActionResponse = Static<typeof AdminPlayerActionResponse>;
