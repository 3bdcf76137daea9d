/**
 * Every REST schema against the spec's payloads, section by section. The spec lists fields rather
 * than literal JSON, so each example below is built from exactly the fields the cited section names
 * (plus the catalogue's `status`/`code`). Each schema also refuses obvious wrong values. A schema
 * added to rest.ts without examples here fails the coverage test at the end.
 */
import { describe, expect, it } from 'vitest';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import * as rest from './rest.js';
import { INT4_MAX } from './text.js';
import { buildPaytable } from './slot/index.js';

const NUL = '\u0000';
const ok = { status: true, code: 20000 };
const when = '2026-11-23T18:00:00.000Z';

const machine = {
  id: 1,
  name: 'Golden Reels 1',
  status: 'available',
  brand: 'Golden Reels',
  brandId: 1,
  image: null,
  reservation: false,
  hot: false,
  queue: 2,
  videoType: 'screen',
  bands: [{ id: 'high', name: '640x360', width: 640, height: 360, bitrateKbps: 1200, Order: 2 }],
};
const brand = { id: 1, name: 'Golden Reels', jackpot: '100000,25000,5000', machineCount: 4, image: null };
const chatListEntry = { chatId: '7-support', contactId: 'support', lastMessageTime: when };
const chatMessage = { who: '7', message: 'Hello', time: when };
const sessionRow = {
  id: '0b6f3c1e-2a4d-4e8f-9b1a-3c5d7e9f1a2b',
  machine: 'Golden Reels 1',
  machineId: 1,
  brand: 'Golden Reels',
  start: when,
  end: null,
  duration_s: 95,
  spin_count: 12,
  free_spin_count: 3,
  cash_in: 5000,
  cash_out: 6200,
  net: 1200,
  status: 'closed',
};
const transactionRow = {
  id: '42',
  date: when,
  from: 'Cashier',
  amount: 100000,
  type: 'Deposit',
  action_code: 1,
  machine: null,
  session_id: null,
  start: null,
  end: null,
  duration_s: null,
  spin_count: null,
  free_spin_count: null,
  tag: null,
};

interface Examples {
  /** Where in the spec the fields come from. */
  spec: string;
  valid: unknown[];
  invalid: unknown[];
}

/** Keyed by the export name in rest.ts. */
const examples: Record<string, Examples> = {
  // --- section 7, POST /login, and section 3 "Login response" ------------------------------
  LoginRequest: {
    spec: '§7 POST /login: username, password, site_id (0 if unset)',
    valid: [
      { username: 'demo', password: 'demo1234', site_id: 0 },
      { username: 'demo@reel.live', password: 'demo1234' },
    ],
    invalid: [
      {},
      { username: 'demo' },
      { username: 5, password: 'x' },
      { username: '', password: 'x' },
      { username: `de${NUL}mo`, password: 'x' },
      { username: 'demo', password: 'x', site_id: -1 },
      { username: 'demo', password: 'x', site_id: INT4_MAX + 1 },
      { username: 'demo', password: 'x', site_id: 'a' },
    ],
  },
  LoginResponse: {
    spec: '§3 Login response / §7: token, pin_code, ip_address, versions, last_logon, last_logon_ip',
    valid: [
      {
        ...ok,
        token: 'h.p.s',
        pin_code: true,
        ip_address: '10.0.0.1',
        versions: 'server 1.0.0; ui v2.4.5',
        last_logon: when,
        last_logon_ip: '10.0.0.2',
      },
      {
        ...ok,
        token: 'h.p.s',
        pin_code: false,
        ip_address: '10.0.0.1',
        versions: 'v2.4.5',
        last_logon: null,
        last_logon_ip: null,
      },
    ],
    invalid: [
      { ...ok, pin_code: true },
      {
        ...ok,
        token: 'x',
        pin_code: '1234',
        ip_address: '',
        versions: '',
        last_logon: null,
        last_logon_ip: null,
      },
    ],
  },
  ValidateResponse: {
    spec: '§7 GET /validate: token, pin_code',
    valid: [
      {
        ...ok,
        token: 'h.p.s',
        pin_code: true,
        ip_address: '10.0.0.1',
        versions: 'v2.4.5',
        last_logon: when,
        last_logon_ip: '10.0.0.1',
      },
    ],
    invalid: [
      { ...ok },
      {
        ...ok,
        token: 1,
        pin_code: true,
        ip_address: '',
        versions: '',
        last_logon: 'yesterday',
        last_logon_ip: null,
      },
    ],
  },
  // --- section 8: every error answer --------------------------------------------------------
  ErrorResponse: {
    spec: '§7 ErrorMessage, code, Params; §8 catalogue',
    valid: [
      {
        status: false,
        code: 10700,
        ErrorMessage: 'Incorrect username or password; remaining rights 2, blocked for 15 minutes',
        Params: { left_count: 2, block_time: 15 },
      },
      { status: false, code: 40001, ErrorMessage: 'Old password is wrong' },
      { status: false, code: 10704 },
    ],
    invalid: [
      { code: 40000 },
      { status: false, code: '40000' },
      { status: false, code: 40000, Params: { amount: true } },
    ],
  },
  ParamsSchema: {
    spec: '§8 placeholders ({left_count}, {block_time}, {amount}, {count})',
    valid: [{ left_count: 2, block_time: 15 }, { amount: 10000 }, { machine: 'Golden Reels 1' }, {}],
    invalid: [{ amount: null }, { amount: [1] }, 'amount'],
  },
  OkResponse: {
    spec: '§7 POST /player/logout: clears session',
    valid: [ok],
    invalid: [{ status: true }, {}],
  },
  // --- section 7, player ---------------------------------------------------------------------
  BalanceResponse: {
    spec: '§7 GET /player/balance: balance (cents)',
    valid: [{ ...ok, balance: 100000, cash: 100000, credit: 0, bonus: 0, discount: 0, currency: 'TRY' }],
    invalid: [
      { ...ok, balance: 1000.5, cash: 0, credit: 0, bonus: 0, discount: 0, currency: 'TRY' },
      { ...ok, balance: '1000' },
    ],
  },
  ProfileResponse: {
    spec: '§2 Profile page / §3 User: name, lastname, email, username, group, Permissions, IP, last logon, last password change, expired-password notice',
    valid: [
      {
        ...ok,
        id: 7,
        name: 'Demo',
        lastname: 'Player',
        email: 'demo@reel.live',
        username: 'demo',
        group: 'players',
        Permissions: [145],
        ip_address: '10.0.0.1',
        last_logon: when,
        last_logon_ip: '10.0.0.1',
        password_changed_at: when,
        password_expired: false,
        pin_code: true,
        settings: { layout: { style: 'layout3' }, theme: { main: 'dark1' } },
        shortcuts: ['lobby'],
      },
    ],
    invalid: [{ ...ok, id: 7 }],
  },
  ChangePasswordRequest: {
    spec: '§5: server codes 40001 / 40101 on password change (docs/api.md: { old_password, new_password })',
    valid: [
      { old_password: 'demo1234', new_password: 'new-secret-1' },
      { old_password: 'x', new_password: '' },
    ],
    invalid: [
      { old_password: 'demo1234' },
      { old_password: '', new_password: 'x' },
      { old_password: 'a', new_password: `b${NUL}` },
      { old_password: 1, new_password: 2 },
    ],
  },
  SetPinRequest: {
    spec: '§4 Idle lock: a PIN (docs/api.md: { password, pin }, 4-8 digits)',
    valid: [
      { password: 'demo1234', pin: '1234' },
      { password: 'demo1234', pin: '12345678' },
    ],
    invalid: [
      { password: 'demo1234', pin: '123' },
      { password: 'demo1234', pin: 'abcd' },
      { password: 'demo1234', pin: 1234 },
      { pin: '1234' },
    ],
  },
  VerifyPinRequest: {
    spec: '§4 Idle lock: the entered PIN',
    valid: [{ pin: '1234' }],
    invalid: [{}, { pin: '' }, { pin: 1234 }, { pin: `12${NUL}4` }, { pin: '1'.repeat(17) }],
  },
  MachineActionRequest: {
    spec: '§7 POST /player/kick and /player/cancel: machineId',
    valid: [{ machineId: 1 }, { machineId: INT4_MAX }],
    invalid: [{}, { machineId: 0 }, { machineId: '1' }, { machineId: 1.5 }, { machineId: INT4_MAX + 1 }],
  },
  PromotionResponse: {
    spec: '§7 GET /player/discount and /player/bonus: status, code, Params.amount (cents), ErrorMessage',
    valid: [
      { ...ok, Params: { amount: 2000 } },
      {
        status: false,
        code: 40202,
        ErrorMessage: 'Your balance must be below 100.00',
        Params: { amount: 10000 },
      },
    ],
    invalid: [{ Params: { amount: 2000 } }, { ...ok, Params: { amount: false } }],
  },
  UserUpdateRequest: {
    spec: '§7 POST /api/auth/user/update: user; §3 Settings: layout style and config, theme (main, navbar, toolbar, footer), direction, customScrollbars, animations',
    valid: [
      {
        user: {
          settings: {
            layout: { style: 'layout3', config: { navbar: { folded: false } } },
            theme: { main: 'dark1', navbar: 'dark1', toolbar: 'dark1', footer: 'dark1' },
            direction: 'ltr',
            customScrollbars: true,
            animations: true,
          },
          shortcuts: ['lobby', 'profile'],
        },
      },
      { user: {} },
    ],
    invalid: [
      {},
      { user: { shortcuts: 'lobby' } },
      { user: { shortcuts: [`a${NUL}`] } },
      { user: { settings: { [`k${NUL}`]: 1 } } },
      { user: { settings: [] } },
    ],
  },
  UserUpdateResponse: {
    spec: '§7 POST /api/auth/user/update',
    valid: [{ ...ok, settings: { direction: 'rtl' }, shortcuts: [] }],
    invalid: [{ ...ok, settings: 'rtl', shortcuts: [] }],
  },
  RegisterResponse: {
    spec: '§7 POST /api/auth/register: user, access_token, error',
    valid: [
      {
        status: false,
        code: 40301,
        ErrorMessage: 'Registration is closed, please contact support',
        error: { code: 40301 },
      },
      { ...ok, user: {}, access_token: 'x' },
    ],
    invalid: [{ status: false, code: 40301, access_token: 5 }],
  },
  // --- section 3 Machine, Brand; section 7 GET /machine/* ---------------------------------------
  QualityBand: {
    spec: '§3 Game view state: bands list (sorted by Order descending)',
    valid: [machine.bands[0]],
    invalid: [
      { id: 'high', Order: 2 },
      { ...machine.bands[0], Order: '2' },
    ],
  },
  Brand: {
    spec: '§3 Brand/lobby entry: id, name, jackpot (comma separated list), machineCount (default 0)',
    valid: [brand, { ...brand, jackpot: '', machineCount: 0 }],
    invalid: [
      { ...brand, jackpot: [100000] },
      { id: 1, name: 'x' },
    ],
  },
  Machine: {
    spec: '§3 Machine: id, status, image or brand, reservation flag; §4 statuses',
    valid: ['playing', 'available', 'waiting', 'reserved', 'not_available'].map((status) => ({
      ...machine,
      status,
    })),
    invalid: [
      { ...machine, status: 'Not Available' },
      { ...machine, reservation: 'yes' },
      { ...machine, videoType: 'webcam' },
    ],
  },
  BrandWithMachines: {
    spec: '§7 GET /machine/{id} and /machine/all: object with brand and machines',
    valid: [
      { brand, machines: [machine] },
      { brand, machines: [] },
    ],
    invalid: [{ brand }, { brand, machines: [{ id: 1 }] }],
  },
  BrandList: {
    spec: '§7 GET /machine/brands: the brand groups',
    valid: [[brand], []],
    invalid: [[{ id: 1, name: 'x' }], brand],
  },
  BrandsWithMachines: {
    spec: '§7 GET /machine/all: every brand group with its machines',
    valid: [[{ brand, machines: [machine] }], []],
    invalid: [[{ brand }], { brand, machines: [] }],
  },
  IdParams: {
    spec: '§7 GET /machine/{id}: a machine or brand id in the path',
    valid: [{ id: 1 }, { id: INT4_MAX }],
    invalid: [{}, { id: 0 }, { id: 1.5 }, { id: INT4_MAX + 1 }],
  },
  OpenSessionResponse: {
    spec: '§7 GET /player/session: show, id, name, machine_status, session_status (docs/api.md)',
    valid: [
      { ...ok, show: true, id: 3, name: 'Zeus 3', machine_status: 'idle', session_status: 'disconnected' },
      { ...ok, show: false, id: null, name: null, machine_status: null, session_status: null },
    ],
    invalid: [{ ...ok, show: true }, { ...ok, show: false, id: null, name: null, machine_status: null, session_status: 'closed' }],
  },
  PromotionHeaders: {
    spec: '§7 GET /player/discount and /player/bonus: an optional idempotency key',
    valid: [{}, { 'idempotency-key': 'claim-1' }],
    invalid: [{ 'idempotency-key': '' }, { 'idempotency-key': 'x'.repeat(101) }],
  },
  PaytableResponse: {
    spec: 'footer Paytables page, generated from the cabinets\' tables (docs/spec-decisions.md)',
    valid: [{ status: true, code: 20000, ...buildPaytable() }],
    invalid: [
      { status: true, code: 20000, ...buildPaytable(), rtp: undefined },
      { status: true, code: 20000, ...buildPaytable(), symbols: [{ symbol: 'WILD', kind: 'joker', pays: [], stopsPerReel: [] }] },
    ],
  },
  // --- section 2 Tables ------------------------------------------------------------------------
  HistoryQuery: {
    spec: '§2 Tables: search, load more, items per page',
    valid: [{}, { search: 'Golden', limit: 10 }, { cursor: 'dDo0Mg', limit: 100 }],
    invalid: [
      { limit: 0 },
      { limit: 101 },
      { search: 'x'.repeat(101) },
      { search: NUL },
      { cursor: `a${NUL}` },
    ],
  },
  HistoryCsvQuery: {
    spec: '§2 Tables: download',
    valid: [{}, { search: 'Deposit' }],
    invalid: [{ search: NUL }, { search: 5 }],
  },
  SlotSessionRow: {
    spec: '§2 Tables: machine, start, end, played session duration, spin count, free spin count',
    valid: [sessionRow, { ...sessionRow, end: when }],
    invalid: [
      { ...sessionRow, start: 'today' },
      { ...sessionRow, spin_count: '12' },
    ],
  },
  TransactionRow: {
    spec: '§2 Tables: operation date, played session duration, from, amount, type, machine, start, end, spin count, free spin count, tag; §3 amount action codes',
    valid: [
      transactionRow,
      {
        ...transactionRow,
        id: '43',
        amount: -5000,
        type: 'Cash In',
        action_code: 3,
        machine: 'Golden Reels 1',
        session_id: sessionRow.id,
        start: when,
        end: when,
        duration_s: 95,
        spin_count: 12,
        free_spin_count: 3,
      },
      {
        ...transactionRow,
        id: '44',
        amount: 2000,
        type: 'discount',
        action_code: null,
        from: 'Promotions',
        tag: 'discount',
      },
    ],
    invalid: [
      { ...transactionRow, amount: 10.5 },
      { ...transactionRow, date: null },
    ],
  },
  SlotSessionPage: {
    spec: '§2 Tables: load more',
    valid: [
      { ...ok, items: [sessionRow], next_cursor: 'cz...' },
      { ...ok, items: [], next_cursor: null },
    ],
    invalid: [{ ...ok, items: [transactionRow], next_cursor: null }],
  },
  TransactionPage: {
    spec: '§2 Tables: load more',
    valid: [{ ...ok, items: [transactionRow], next_cursor: null }],
    invalid: [
      { ...ok, items: [sessionRow], next_cursor: null },
      { ...ok, items: [] },
    ],
  },
  // --- section 7 GET /check; section 3 IP check response ------------------------------------------
  CheckResponse: {
    spec: '§3 IP check response: status, code, ip, country',
    valid: [
      { status: 1, code: 1, ip: '10.0.0.1', country: 'TR' },
      { status: 0, code: 0, ip: '203.0.113.5', country: 'DE' },
      { status: 1, code: 1, ip: '10.0.0.1', country: 'TR', server: 's2', shards: 21, sessions: 40, relayed: 3 },
    ],
    invalid: [
      { status: true, code: 1, ip: '10.0.0.1', country: 'TR' },
      { status: 1, code: 1, ip: '10.0.0.1', country: 'TR', server: 's2', shards: -1 },
      { status: 1, code: 1 },
    ],
  },
  // --- section 3 chat entities; section 7 /api/chat/* -----------------------------------------------
  ContactStatus: {
    spec: '§2 Chat panel: status (online, do-not-disturb, away, offline)',
    valid: ['online', 'do-not-disturb', 'away', 'offline'],
    invalid: ['busy', '', null],
  },
  Contact: {
    spec: '§3 Contact: id, name, avatar, status, unread',
    valid: [{ id: 'support', name: 'Support', avatar: '', status: 'online', mood: '', unread: 2 }],
    invalid: [{ id: 'support', name: 'Support', avatar: '', status: 'online', mood: '', unread: '2' }],
  },
  ChatListEntry: {
    spec: '§3 Chat user: chatList (entries with contactId)',
    valid: [chatListEntry, { ...chatListEntry, lastMessageTime: null }],
    invalid: [{ chatId: '7-support' }, { ...chatListEntry, contactId: NUL }],
  },
  ChatUser: {
    spec: '§3 Chat user: id, chatList; §7 GET /api/chat/user',
    valid: [
      { id: '7', name: 'Demo Player', avatar: '', status: 'online', mood: '', chatList: [chatListEntry] },
    ],
    invalid: [{ id: 7, chatList: [] }],
  },
  ChatMessage: {
    spec: '§3 Chat: dialog (messages with who, message, time)',
    valid: [chatMessage],
    invalid: [
      { who: '7', message: 'Hello' },
      { ...chatMessage, time: 'now' },
    ],
  },
  Chat: {
    spec: '§3 Chat: id, dialog',
    valid: [{ id: '7-support', dialog: [chatMessage] }],
    invalid: [{ id: '7-support', dialog: [{ who: '7' }] }],
  },
  GetChatQuery: {
    spec: '§7 GET /api/chat/get-chat: query contactId, userId',
    valid: [{ contactId: 'support', userId: '7' }, { contactId: 'support' }],
    invalid: [{}, { contactId: NUL }, { contactId: 'support', userId: 'x'.repeat(65) }],
  },
  GetChatResponse: {
    spec: '§7 GET /api/chat/get-chat: chat and userChatList',
    valid: [{ chat: { id: '7-support', dialog: [chatMessage] }, userChatList: [chatListEntry] }],
    invalid: [{ chat: { id: '7-support' }, userChatList: [] }],
  },
  SendMessageRequest: {
    spec: '§7 POST /api/chat/send-message: chatId, messageText, contactId; §5 an empty message is not sent',
    valid: [{ chatId: '7-support', messageText: 'Hello', contactId: 'support' }],
    invalid: [
      { chatId: '7-support', messageText: '', contactId: 'support' },
      { chatId: '7-support', messageText: '   ', contactId: 'support' },
      { chatId: '7-support', messageText: `hi${NUL}`, contactId: 'support' },
      { chatId: '7-support', contactId: 'support' },
    ],
  },
  SendMessageResponse: {
    spec: '§7 POST /api/chat/send-message: message and userChatList',
    valid: [{ message: chatMessage, userChatList: [chatListEntry] }],
    invalid: [{ message: 'Hello', userChatList: [] }],
  },
  ChatUserDataRequest: {
    spec: '§7 POST /api/chat/user/data: user data',
    valid: [
      {
        id: '7',
        name: 'Demo Player',
        avatar: '',
        status: 'away',
        mood: 'back soon',
        chatList: [chatListEntry],
      },
      { mood: '' },
      {},
    ],
    invalid: [{ status: 'busy' }, { mood: `x${NUL}` }, { mood: 'x'.repeat(201) }],
  },
  // --- player protection (issue 28; not in the spec) -------------------------------------------------
  PlayerLimit: {
    spec: 'issue 28: a limit with what is used, its reset and a waiting raise',
    valid: [
      { key: 'loss_day', value: 5_000, used: 1_200, resetsAt: '2026-11-28T00:00:00.000Z', pending: null },
      { key: 'session_minutes', value: null, used: 0, resetsAt: null, pending: { value: null, requestedAt: '2026-11-27T10:00:00.000Z', confirmableAt: '2026-11-28T10:00:00.000Z' } },
    ],
    invalid: [{ key: 'loss_year', value: 1, used: 0, resetsAt: null, pending: null }, { key: 'loss_day', value: 1, used: 0, pending: null }],
  },
  LimitsResponse: {
    spec: 'issue 28: GET /api/player/limits',
    valid: [{ status: true, code: 20000, limits: [], increaseDelayH: 24, realityCheckMinutes: 60 }],
    invalid: [{ status: true, code: 20000, limits: [], increaseDelayH: 24 }],
  },
  LimitsUpdateRequest: {
    spec: 'issue 28: PUT /api/player/limits',
    valid: [{ limits: [{ key: 'deposit_week', value: 10_000 }] }, { limits: [{ key: 'loss_day', value: null }] }],
    invalid: [{ limits: [] }, { limits: [{ key: 'deposit_week', value: 0 }] }, { limits: [{ key: 'deposit_week', value: 1.5 }] }],
  },
  LimitConfirmRequest: {
    spec: 'issue 28: POST /api/player/limits/confirm',
    valid: [{ key: 'deposit_day' }],
    invalid: [{ key: 'deposit_year' }, {}],
  },
  BreakRequest: {
    spec: 'issue 28: POST /api/player/break',
    valid: [{ period: 'cool_off_24h' }, { period: 'self_exclusion_5y' }],
    invalid: [{ period: 'cool_off_1h' }, {}],
  },
  PlayerBreak: {
    spec: 'issue 28: a break and when it ends',
    valid: [{ kind: 'cool_off', period: 'cool_off_7d', startsAt: '2026-11-27T10:00:00.000Z', endsAt: '2026-12-04T10:00:00.000Z' }],
    invalid: [{ kind: 'holiday', period: 'cool_off_7d', startsAt: '2026-11-27T10:00:00.000Z', endsAt: '2026-12-04T10:00:00.000Z' }],
  },
  BreakResponse: {
    spec: 'issue 28: the answer to POST /api/player/break',
    valid: [{ status: true, code: 20000, break: { kind: 'self_exclusion', period: 'self_exclusion_1y', startsAt: '2026-11-27T10:00:00.000Z', endsAt: '2027-11-27T10:00:00.000Z' } }],
    invalid: [{ status: true, code: 20000 }],
  },
  RealityCheckRequest: {
    spec: 'issue 28: PUT /api/player/reality-check',
    valid: [{ minutes: 60 }, { minutes: 1 }],
    invalid: [{ minutes: 0 }, { minutes: 1441 }, { minutes: 2.5 }],
  },
  QueueReadyCheck: {
    spec: 'issue 29: the ready check of the first in line',
    valid: [{ until: '2026-11-27T10:00:15.000Z', remainingMs: 15_000 }],
    invalid: [{ until: '2026-11-27T10:00:15.000Z' }, { until: '2026-11-27T10:00:15.000Z', remainingMs: 1.5 }],
  },
  QueueEntry: {
    spec: 'issue 29: the player\'s place in a machine\'s queue',
    valid: [
      { machineId: 1, machineName: 'Golden Reels 1', position: 2, length: 3, etaS: 420, ready: null },
      { machineId: 1, machineName: 'Golden Reels 1', position: 1, length: 1, etaS: 0, ready: { until: '2026-11-27T10:00:15.000Z', remainingMs: 9_000 } },
    ],
    invalid: [{ machineId: 1, machineName: 'Golden Reels 1', position: 0, length: 3, etaS: 0, ready: null }, { machineId: 1, position: 1, length: 1, etaS: 0, ready: null }],
  },
  QueueResponse: {
    spec: 'issue 29: GET and POST /api/player/queue',
    valid: [{ ...ok, entry: null }, { ...ok, entry: { machineId: 1, machineName: 'Golden Reels 1', position: 1, length: 1, etaS: 300, ready: null } }],
    invalid: [{ ...ok }],
  },
  QueueJoinRequest: {
    spec: 'issue 29: POST /api/player/queue',
    valid: [{ machineId: 1 }],
    invalid: [{ machineId: 0 }, {}],
  },
  QueueEndReason: {
    spec: 'issue 29: why an entry ended',
    valid: ['left', 'passed', 'seated', 'removed'],
    invalid: ['expired', 1],
  },
  RecalledGame: {
    spec: 'issue 28: one recalled game from the records',
    valid: [{ time: '2026-11-27T10:00:00.000Z', betCents: 100, winCents: 300, symbols: [['CHERRY', 'BAR', 'STAR']], lineWins: [{ line: 0, symbol: 'CHERRY', count: 3, winCents: 300 }], creditsBeforeCents: 1_000, creditsAfterCents: 1_200, freeSpin: false, jackpot: false }],
    invalid: [{ time: '2026-11-27T10:00:00.000Z', betCents: 100, winCents: 300, symbols: [], lineWins: [], creditsBeforeCents: 1_000, creditsAfterCents: 1_200, freeSpin: false }],
  },
  GameRecallResponse: {
    spec: 'issue 28: GET /api/player/slot-sessions/:id/games',
    valid: [{ status: true, code: 20000, sessionId: '6f1c2d43-7d2e-4a59-9b0f-0f5b7d3c2a10', games: [] }],
    invalid: [{ status: true, code: 20000, games: [] }],
  },
  SessionIdParams: {
    spec: 'issue 28: a session id in the path',
    valid: [{ id: '6f1c2d43-7d2e-4a59-9b0f-0f5b7d3c2a10' }],
    invalid: [{ id: 7 }, {}],
  },
  // --- section 3 quick panel; section 7 GET /api/quick-panel/data -------------------------------------
  QuickPanelItem: {
    spec: '§3 Quick panel data: events and notes, each with id, title, detail',
    valid: [{ id: '1', title: 'Maintenance', detail: 'Tonight 02:00' }],
    invalid: [{ id: 1, title: 'x', detail: 'y' }],
  },
  QuickPanelData: {
    spec: '§7 GET /api/quick-panel/data: events and notes',
    valid: [{ events: [{ id: '1', title: 'Maintenance', detail: 'Tonight' }], notes: [] }],
    invalid: [{ events: [] }],
  },
};

/** Exports of rest.ts that are schemas (not the field bag `ResultFields`). */
const schemas = Object.entries(rest as Record<string, unknown>).filter(
  (entry): entry is [string, TSchema] =>
    typeof entry[1] === 'object' && entry[1] !== null && ('type' in entry[1] || 'anyOf' in entry[1]),
);

describe('REST schemas against the spec', () => {
  for (const [name, schema] of schemas) {
    const example = examples[name];
    if (!example) continue;
    describe(`${name} (${example.spec})`, () => {
      it('accepts the spec payloads', () => {
        for (const value of example.valid) {
          expect(
            Value.Check(schema, value),
            `${JSON.stringify(value)} should pass: ${JSON.stringify([...Value.Errors(schema, value)].slice(0, 2))}`,
          ).toBe(true);
        }
      });
      it('refuses wrong ones', () => {
        for (const value of example.invalid)
          expect(Value.Check(schema, value), `${JSON.stringify(value)} should fail`).toBe(false);
      });
    });
  }

  it('covers every schema rest.ts exports', () => {
    expect(schemas.length).toBeGreaterThan(30);
    expect(schemas.map(([name]) => name).filter((name) => !examples[name])).toEqual([]);
    expect(Object.keys(examples).filter((name) => !schemas.some(([n]) => n === name))).toEqual([]);
  });
});
