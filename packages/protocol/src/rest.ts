/**
 * REST request and response schemas (spec section 7); the paths are in paths.ts. Field names are
 * the spec's, exactly. The server validates with these and publishes them as OpenAPI.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { Int4, Text } from './text.js';
import { IDEMPOTENCY_HEADER } from './paths.js';
import { Cents, IsoDate, Nullable } from './rest-fields.js';

// The support chat and the quick panel: their own file, part of this contract all the same.
export * from './rest-chat.js';
// Player protection: limits, breaks, reality checks.
export * from './rest-protection.js';
// The queue for a busy machine.
export * from './rest-queue.js';


export const ParamsSchema = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]));

/** Every answer carries these; errors use them alone. `status` is false on any error. */
export const ResultFields = {
  status: Type.Boolean(),
  code: Type.Integer({ description: 'Catalogue code (spec section 8)' }),
  ErrorMessage: Type.Optional(Type.String()),
  Params: Type.Optional(ParamsSchema),
};
export const ErrorResponse = Type.Object(ResultFields, { $id: 'ErrorResponse' });
export type ErrorResponse = Static<typeof ErrorResponse>;

const withResult = <P extends Record<string, TSchema>>(properties: P, id: string) =>
  Type.Object({ ...ResultFields, ...properties }, { $id: id });

// --- Sign-in -------------------------------------------------------------------------------

export const LoginRequest = Type.Object(
  {
    username: Text({ minLength: 1, maxLength: 254, description: 'Username or email' }),
    password: Text({ minLength: 1, maxLength: 256 }),
    site_id: Type.Optional(Int4({ minimum: 0, default: 0 })),
  },
  { $id: 'LoginRequest' },
);
export type LoginRequest = Static<typeof LoginRequest>;

export const LoginResponse = withResult(
  {
    token: Type.String({ description: 'Bearer access token (JWT); its claims carry the user fields' }),
    pin_code: Type.Boolean({ description: 'True when the player has a PIN; the PIN itself never leaves the server' }),
    ip_address: Type.String(),
    versions: Type.String({ description: 'Server and UI versions' }),
    last_logon: Nullable(IsoDate('Previous successful sign-in')),
    last_logon_ip: Nullable(Type.String()),
  },
  'LoginResponse',
);
export type LoginResponse = Static<typeof LoginResponse>;

export const ValidateResponse = withResult(
  {
    token: Type.String(),
    pin_code: Type.Boolean(),
    ip_address: Type.String(),
    versions: Type.String(),
    last_logon: Nullable(IsoDate('Previous successful sign-in')),
    last_logon_ip: Nullable(Type.String()),
  },
  'ValidateResponse',
);
export type ValidateResponse = Static<typeof ValidateResponse>;

/** Claims of the access token; the web app reads the user's fields from it (spec section 3). */
export interface TokenClaims {
  sub: string;
  id: number;
  jti: string;
  group: string;
  permissions: number[];
  type: string;
  name: string;
  lastname: string;
  email: string;
  username: string;
  /** The operator-set avatar URL (spec "photoURL"); absent: no picture. */
  photoURL?: string;
  role: string[];
  exp: number;
  iat: number;
}

export const OkResponse = withResult({}, 'OkResponse');
export type OkResponse = Static<typeof OkResponse>;

// --- Player --------------------------------------------------------------------------------

export const BalanceResponse = withResult(
  {
    balance: Cents('Total wallet balance'),
    cash: Cents('Cash part'),
    credit: Cents('Credit part'),
    bonus: Cents('Bonus part'),
    discount: Cents('Discount part'),
    currency: Type.String(),
  },
  'BalanceResponse',
);
export type BalanceResponse = Static<typeof BalanceResponse>;

export const ProfileResponse = withResult(
  {
    id: Type.Integer(),
    name: Type.String(),
    lastname: Type.String(),
    email: Type.String(),
    username: Type.String(),
    group: Type.String(),
    Permissions: Type.Array(Type.Integer()),
    ip_address: Type.String(),
    last_logon: Nullable(IsoDate('Previous successful sign-in')),
    last_logon_ip: Nullable(Type.String()),
    password_changed_at: Nullable(IsoDate('Last password change')),
    password_expired: Type.Boolean(),
    pin_code: Type.Boolean(),
    settings: Type.Record(Type.String(), Type.Unknown()),
    shortcuts: Type.Array(Type.String()),
  },
  'ProfileResponse',
);
export type ProfileResponse = Static<typeof ProfileResponse>;

export const ChangePasswordRequest = Type.Object(
  {
    old_password: Text({ minLength: 1, maxLength: 256 }),
    new_password: Text({ maxLength: 256 }),
  },
  { $id: 'ChangePasswordRequest' },
);
export type ChangePasswordRequest = Static<typeof ChangePasswordRequest>;

export const SetPinRequest = Type.Object(
  { password: Text({ minLength: 1, maxLength: 256 }), pin: Type.String({ pattern: '^[0-9]{4,8}$' }) },
  { $id: 'SetPinRequest' },
);
export type SetPinRequest = Static<typeof SetPinRequest>;

export const VerifyPinRequest = Type.Object(
  { pin: Text({ minLength: 1, maxLength: 16 }) },
  { $id: 'VerifyPinRequest' },
);
export type VerifyPinRequest = Static<typeof VerifyPinRequest>;

export const MachineActionRequest = Type.Object(
  { machineId: Int4({ minimum: 1 }) },
  { $id: 'MachineActionRequest' },
);
export type MachineActionRequest = Static<typeof MachineActionRequest>;

/** Discount and bonus answer `Params.amount` in cents on success. */
export const PromotionResponse = withResult({}, 'PromotionResponse');
export type PromotionResponse = Static<typeof PromotionResponse>;


export const UserUpdateRequest = Type.Object(
  {
    user: Type.Object({
      // Free-form UI settings; the JSON body guard keeps NUL characters and deep nesting out.
      settings: Type.Optional(
        Type.Record(Type.String(), Type.Unknown(), { maxProperties: 200, propertyNames: Text({ maxLength: 100 }) }),
      ),
      shortcuts: Type.Optional(Type.Array(Text({ maxLength: 64 }), { maxItems: 50 })),
    }),
  },
  { $id: 'UserUpdateRequest' },
);
export type UserUpdateRequest = Static<typeof UserUpdateRequest>;

export const UserUpdateResponse = withResult(
  {
    settings: Type.Record(Type.String(), Type.Unknown()),
    shortcuts: Type.Array(Type.String()),
  },
  'UserUpdateResponse',
);
export type UserUpdateResponse = Static<typeof UserUpdateResponse>;

export const RegisterResponse = withResult(
  { user: Type.Optional(Type.Unknown()), access_token: Type.Optional(Type.String()), error: Type.Optional(Type.Unknown()) },
  'RegisterResponse',
);

// --- Machines ------------------------------------------------------------------------------

export const QualityBand = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    width: Type.Integer(),
    height: Type.Integer(),
    bitrateKbps: Type.Integer(),
    Order: Type.Integer({ description: 'Sort key; the game sorts bands by Order descending' }),
    fps: Type.Optional(Type.Integer({ description: 'Frames per second (Settings.json FPS)' })),
  },
  { $id: 'QualityBand' },
);
export type QualityBand = Static<typeof QualityBand>;

export const Brand = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    jackpot: Type.String({ description: 'Comma-separated jackpot values in cents' }),
    machineCount: Type.Integer({ default: 0 }),
    image: Nullable(Type.String()),
  },
  { $id: 'Brand' },
);
export type Brand = Static<typeof Brand>;

export const Machine = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    status: Type.Union([
      Type.Literal('playing'),
      Type.Literal('available'),
      Type.Literal('waiting'),
      Type.Literal('reserved'),
      Type.Literal('not_available'),
    ]),
    brand: Type.String({ description: 'Brand name' }),
    brandId: Type.Integer(),
    image: Nullable(Type.String()),
    reservation: Type.Boolean({ description: 'True when the machine carries a reservation' }),
    hot: Type.Boolean({ description: 'Recent payouts passed HOT_FLAG_LIMIT' }),
    queue: Type.Optional(Type.Integer({ minimum: 0, description: 'Players waiting in the machine\'s queue' })),
    videoType: Type.Union([Type.Literal('screen'), Type.Literal('camera')]),
    bands: Type.Array(QualityBand),
  },
  { $id: 'Machine' },
);
export type Machine = Static<typeof Machine>;

export const BrandWithMachines = Type.Object({ brand: Brand, machines: Type.Array(Machine) }, { $id: 'BrandWithMachines' });
export type BrandWithMachines = Static<typeof BrandWithMachines>;

export const BrandList = Type.Array(Brand);
export const BrandsWithMachines = Type.Array(BrandWithMachines);

/** A path's `:id` (a machine, or a brand group in single-lobby mode). */
export const IdParams = Type.Object({ id: Int4({ minimum: 1 }) });

/** A machine's picture: the bytes themselves. */
export const MachinePictureResponse = Type.Any({ description: 'image/jpeg or image/svg+xml' });

/** The headers of a promotion claim: an optional idempotency key, so a retry is answered, not refused. */
export const PromotionHeaders = Type.Object({
  [IDEMPOTENCY_HEADER]: Type.Optional(
    Text({
      minLength: 1,
      maxLength: 100,
      description:
        'Optional; a retry with the same key answers the first claim again instead of a cooldown error',
    }),
  ),
});

// --- Sessions ------------------------------------------------------------------------------

/** `GET /player/session`: the same facts as the `session` push, for a page that just opened. */
export const OpenSessionResponse = withResult(
  {
    show: Type.Boolean(),
    id: Nullable(Type.Integer()),
    name: Nullable(Type.String()),
    machine_status: Nullable(Type.String()),
    session_status: Nullable(Type.Union([Type.Literal('open'), Type.Literal('disconnected')])),
  },
  'OpenSessionResponse',
);
export type OpenSessionResponse = Static<typeof OpenSessionResponse>;

/** `GET /machine/paytable`: the slot game's paytable (PaytableData in slot/paytable.ts, built from the cabinets' tables). */
export const PaytableResponse = withResult(
  {
    reels: Type.Integer(),
    rows: Type.Integer(),
    lines: Type.Integer(),
    betLevelsCents: Type.Array(Type.Integer(), { description: 'Total bet per spin per bet level (integer cents)' }),
    symbols: Type.Array(
      Type.Object({
        symbol: Type.String({ description: 'Symbol name (SlotSymbol)' }),
        kind: Type.Union([Type.Literal('wild'), Type.Literal('regular'), Type.Literal('scatter')]),
        pays: Type.Array(Type.Integer(), {
          description: 'For 3, 4 and 5: line-bet multiples on a payline; for the scatter, total-bet multiples anywhere',
        }),
        stopsPerReel: Type.Array(Type.Integer(), { description: 'How many stops of each reel strip carry the symbol' }),
      }),
    ),
    scatterPays: Type.Array(Type.Object({ count: Type.Integer(), multiplier: Type.Integer({ description: 'Total-bet multiple' }) })),
    freeSpins: Type.Object({ trigger: Type.Integer(), award: Type.Integer(), multiplier: Type.Integer(), retrigger: Type.Boolean() }),
    paylines: Type.Array(Type.Array(Type.Integer()), { description: 'Rows (0 = top) per reel, per payline' }),
    rtp: Type.Object(
      {
        total: Type.Number(),
        base: Type.Number(),
        lines: Type.Number(),
        scatter: Type.Number(),
        freeSpins: Type.Number(),
        freeSpinTriggerProbability: Type.Number(),
      },
      { description: 'Design return to player as fractions (0.95 = 95 %), exact from the reel strips' },
    ),
    jackpotOdds: Type.Integer({ description: 'One paid spin in this many flags a jackpot (paid from the brand pool, outside the RTP)' }),
  },
  'PaytableResponse',
);
export type PaytableResponse = Static<typeof PaytableResponse>;

// --- History -------------------------------------------------------------------------------

export const HistoryQuery = Type.Object(
  {
    search: Type.Optional(Text({ maxLength: 100 })),
    cursor: Type.Optional(Text({ maxLength: 200 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  },
  { $id: 'HistoryQuery' },
);
export type HistoryQuery = Static<typeof HistoryQuery>;

/** The CSV downloads take the list's search only; they answer every matching row. */
export const HistoryCsvQuery = Type.Object({ search: Type.Optional(Text({ maxLength: 100 })) }, { $id: 'HistoryCsvQuery' });
export type HistoryCsvQuery = Static<typeof HistoryCsvQuery>;

export const SlotSessionRow = Type.Object(
  {
    id: Type.String(),
    machine: Type.String(),
    machineId: Type.Integer(),
    brand: Type.String(),
    start: IsoDate('Session start'),
    end: Nullable(IsoDate('Session end')),
    duration_s: Type.Integer({ description: 'Played session duration in seconds' }),
    spin_count: Type.Integer(),
    free_spin_count: Type.Integer(),
    cash_in: Cents('Money put on the machine'),
    cash_out: Cents('Money taken off the machine'),
    net: Cents('cash_out - cash_in'),
    status: Type.String(),
  },
  { $id: 'SlotSessionRow' },
);
export type SlotSessionRow = Static<typeof SlotSessionRow>;

export const TransactionRow = Type.Object(
  {
    id: Type.String(),
    date: IsoDate('Operation date'),
    from: Type.String({ description: 'Where the money came from (cashier, machine, wallet, promotion)' }),
    amount: Cents('Signed amount for the player'),
    type: Type.String({ description: 'Action code name or promotion kind' }),
    action_code: Nullable(Type.Integer()),
    machine: Nullable(Type.String()),
    session_id: Nullable(Type.String()),
    start: Nullable(IsoDate('Session start')),
    end: Nullable(IsoDate('Session end')),
    duration_s: Nullable(Type.Integer({ description: 'Played session duration in seconds' })),
    spin_count: Nullable(Type.Integer()),
    free_spin_count: Nullable(Type.Integer()),
    tag: Nullable(Type.String()),
  },
  { $id: 'TransactionRow' },
);
export type TransactionRow = Static<typeof TransactionRow>;

const page = <T extends TSchema>(item: T, id: string) =>
  withResult({ items: Type.Array(item), next_cursor: Nullable(Type.String()) }, id);
export const SlotSessionPage = page(SlotSessionRow, 'SlotSessionPage');
export type SlotSessionPage = Static<typeof SlotSessionPage>;
export const TransactionPage = page(TransactionRow, 'TransactionPage');
export type TransactionPage = Static<typeof TransactionPage>;

// --- IP check ------------------------------------------------------------------------------

export const CheckResponse = Type.Object(
  {
    status: Type.Integer({ description: '1 allowed, 0 blocked' }),
    code: Type.Integer(),
    ip: Type.String(),
    country: Type.String(),
    server: Type.Optional(Type.String({ description: 'Several servers (docs/scale.md): the server instance that answered' })),
    shards: Type.Optional(Type.Integer({ minimum: 0, description: 'Several servers: how many machine shards the answering server owns' })),
    sessions: Type.Optional(Type.Integer({ minimum: 0, description: 'Several servers: how many open sessions the answering server owns (in its shards)' })),
    relayed: Type.Optional(
      Type.Integer({ minimum: 0, description: 'Several servers: game sockets joined on the answering server whose session another server owns (HAProxy sends a socket naming its machine to the owner)' }),
    ),
  },
  { $id: 'CheckResponse' },
);
export type CheckResponse = Static<typeof CheckResponse>;
