import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionCode, ApiPath, Code } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';
import { withTransaction } from '../../db/pool.js';
import { moveInTransaction, OperationKind } from '../ledger/ledger.js';

let t: TestApp;
let demoToken: string;
let aliceToken: string;
let demoId: number;
let aliceId: number;
const machine: Record<string, number> = {};
let sessionA: string;

const get = (url: string, token = demoToken) =>
  t.app.inject({ method: 'GET', url: `/api${url}`, headers: t.auth(token) });

async function insertSession(values: {
  playerId: number;
  machineId: number;
  startedAt: string;
  endedAt?: string | null;
  status?: string;
  spins?: number;
  freeSpins?: number;
  cashIn?: number;
  cashOut?: number;
}) {
  const { rows } = await t.ctx.db.query<{ id: string }>(
    `INSERT INTO slot_sessions (id, player_id, machine_id, status, started_at, ended_at, spins, free_spins, cash_in_cents, cash_out_cents)
     VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [
      values.playerId,
      values.machineId,
      values.status ?? 'closed',
      values.startedAt,
      values.endedAt === undefined ? values.startedAt : values.endedAt,
      values.spins ?? 0,
      values.freeSpins ?? 0,
      values.cashIn ?? 0,
      values.cashOut ?? 0,
    ],
  );
  return rows[0]!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  demoToken = await t.login('demo', 'demo1234');
  aliceToken = await t.login('alice', 'alice1234');
  const players = await t.ctx.db.query<{ id: number; username: string }>('SELECT id, username FROM players');
  demoId = players.rows.find((p) => p.username === 'demo')!.id;
  aliceId = players.rows.find((p) => p.username === 'alice')!.id;
  const machines = await t.ctx.db.query<{ id: number; name: string }>('SELECT id, name FROM machines');
  for (const m of machines.rows) machine[m.name] = m.id;

  // Demo: one session with money in and out, 24 filler sessions, three sharing one start time.
  sessionA = await insertSession({
    playerId: demoId,
    machineId: machine['Golden Reels 1']!,
    startedAt: '2030-01-01T10:00:00.123456Z',
    endedAt: '2030-01-01T11:00:00.123456Z',
    spins: 40,
    freeSpins: 5,
    cashIn: 10_000,
    cashOut: 12_550,
  });
  for (let i = 0; i < 21; i++) {
    await insertSession({
      playerId: demoId,
      machineId: machine['Lucky Sevens 2']!,
      startedAt: `2029-06-${String(i + 1).padStart(2, '0')}T08:00:00Z`,
    });
  }
  for (let i = 0; i < 3; i++) {
    await insertSession({
      playerId: demoId,
      machineId: machine['Fruit Palace 1']!,
      startedAt: '2029-05-01T08:00:00Z',
    });
  }
  // Alice plays a machine demo never touches.
  await insertSession({
    playerId: aliceId,
    machineId: machine['Fruit Palace 3']!,
    startedAt: '2031-01-01T00:00:00Z',
    cashIn: 777,
  });

  await withTransaction(t.ctx.db, async (tx) => {
    await moveInTransaction(tx, {
      kind: OperationKind.CashIn,
      actionCode: ActionCode.CashIn,
      playerId: demoId,
      from: { kind: 'wallet', playerId: demoId },
      to: { kind: 'machine', machineId: machine['Golden Reels 1']! },
      amountCents: 10_000,
      machineId: machine['Golden Reels 1']!,
      sessionId: sessionA,
    });
    await moveInTransaction(tx, {
      kind: OperationKind.CashOut,
      actionCode: ActionCode.CashOut,
      playerId: demoId,
      from: { kind: 'machine', machineId: machine['Golden Reels 1']! },
      to: { kind: 'wallet', playerId: demoId, part: 'cash' },
      amountCents: 10_000,
      machineId: machine['Golden Reels 1']!,
      sessionId: sessionA,
    });
    await moveInTransaction(tx, {
      kind: OperationKind.Discount,
      playerId: demoId,
      from: { kind: 'promotions' },
      to: { kind: 'wallet', playerId: demoId, part: 'discount' },
      amountCents: 250,
      tag: '=HYPERLINK("http://evil","x"), really',
    });
    for (let i = 0; i < 12; i++) {
      await moveInTransaction(tx, {
        kind: OperationKind.Withdraw,
        actionCode: ActionCode.Withdraw,
        playerId: demoId,
        from: { kind: 'wallet', playerId: demoId, part: 'cash' },
        to: { kind: 'cashier' },
        amountCents: 100 + i,
      });
    }
    await moveInTransaction(tx, {
      kind: OperationKind.Deposit,
      actionCode: ActionCode.Deposit,
      playerId: aliceId,
      from: { kind: 'cashier' },
      to: { kind: 'wallet', playerId: aliceId, part: 'cash' },
      amountCents: 4_242,
      tag: 'alice secret tag',
    });
  });
});
afterAll(() => t.close());

async function walk(path: string, limit: number, token = demoToken) {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) });
    const response = await get(`${path}?${query}`, token);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ status: true, code: Code.Success });
    expect(body.items.length).toBeLessThanOrEqual(limit);
    ids.push(...body.items.map((i: { id: string }) => i.id));
    cursor = body.next_cursor;
    pages++;
  } while (cursor && pages < 100);
  return { ids, pages };
}

describe('GET /player/slot-sessions', () => {
  it('answers ten rows by default, newest first, with the computed columns', async () => {
    const response = await get(ApiPath.slotSessions);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ status: true, code: Code.Success });
    expect(body.items).toHaveLength(10);
    expect(typeof body.next_cursor).toBe('string');
    expect(body.items[0]).toEqual({
      id: sessionA,
      machine: 'Golden Reels 1',
      machineId: machine['Golden Reels 1'],
      brand: 'Golden Reels',
      start: '2030-01-01T10:00:00.123Z',
      end: '2030-01-01T11:00:00.123Z',
      duration_s: 3600,
      spin_count: 40,
      free_spin_count: 5,
      cash_in: 10_000,
      cash_out: 12_550,
      net: 2_550,
      status: 'closed',
    });
    const starts = body.items.map((i: { start: string }) => i.start);
    expect([...starts].sort().reverse()).toEqual(starts);
  });

  it('walks every row exactly once, also across equal start times', async () => {
    for (const limit of [1, 3, 10, 100]) {
      const { ids } = await walk(ApiPath.slotSessions, limit);
      expect(ids).toHaveLength(25);
      expect(new Set(ids).size).toBe(25);
    }
  });

  it('keeps its place when newer sessions arrive between pages', async () => {
    const first = (await get(`${ApiPath.slotSessions}?limit=5`)).json();
    const newer = await insertSession({
      playerId: demoId,
      machineId: machine['Golden Reels 2']!,
      startedAt: '2035-01-01T00:00:00Z',
    });
    try {
      const second = (await get(`${ApiPath.slotSessions}?limit=5&cursor=${first.next_cursor}`)).json();
      const seen = [...first.items, ...second.items].map((i: { id: string }) => i.id);
      expect(new Set(seen).size).toBe(10);
      expect(seen).not.toContain(newer);
    } finally {
      await t.ctx.db.query('DELETE FROM slot_sessions WHERE id = $1', [newer]);
    }
  });

  it('searches machine, brand and status, trimmed and case-insensitive', async () => {
    const lucky = (
      await get(`${ApiPath.slotSessions}?limit=100&search=${encodeURIComponent('  LUCKY sev ')}`)
    ).json();
    expect(lucky.items).toHaveLength(21);
    expect(lucky.items.every((i: { machine: string }) => i.machine === 'Lucky Sevens 2')).toBe(true);
    const brand = (await get(`${ApiPath.slotSessions}?search=golden%20reels`)).json();
    expect(brand.items.map((i: { id: string }) => i.id)).toEqual([sessionA]);
    expect((await get(`${ApiPath.slotSessions}?search=CLOSED&limit=100`)).json().items).toHaveLength(25);
    // Wildcards typed by the user are literal text.
    expect((await get(`${ApiPath.slotSessions}?search=%25`)).json().items).toHaveLength(0);
    expect((await get(`${ApiPath.slotSessions}?search=_`)).json().items).toHaveLength(0);
    // A blank search is no filter.
    expect((await get(`${ApiPath.slotSessions}?search=%20%20&limit=100`)).json().items).toHaveLength(25);
  });

  it("never shows another player's sessions", async () => {
    const fruit3 = (await get(`${ApiPath.slotSessions}?search=Fruit%20Palace%203`)).json();
    expect(fruit3.items).toEqual([]);
    // Extra parameters naming another player are ignored, not obeyed.
    const sneaky = (
      await get(`${ApiPath.slotSessions}?limit=100&player_id=${aliceId}&userId=${aliceId}`)
    ).json();
    expect(sneaky.items).toHaveLength(25);
    const alice = (await get(ApiPath.slotSessions, aliceToken)).json();
    expect(alice.items).toHaveLength(1);
    expect(alice.items[0]).toMatchObject({ machine: 'Fruit Palace 3', cash_in: 777 });
    expect(alice.next_cursor).toBeNull();
    // Demo's cursor used by alice only positions within alice's own rows.
    const demoCursor = (await get(`${ApiPath.slotSessions}?limit=1`)).json().next_cursor;
    const crossed = (await get(`${ApiPath.slotSessions}?cursor=${demoCursor}`, aliceToken)).json();
    expect(crossed.items.every((i: { machine: string }) => i.machine === 'Fruit Palace 3')).toBe(true);
  });

  it('refuses bad paging input with 40000', async () => {
    const transactionCursor = (await get(`${ApiPath.transactions}?limit=1`)).json().next_cursor;
    for (const query of [
      'limit=0',
      'limit=101',
      'limit=1000000',
      'limit=abc',
      'limit=1.5',
      'cursor=!!!',
      `cursor=${Buffer.from('s:123:not-a-uuid').toString('base64url')}`,
      `cursor=${Buffer.from('garbage').toString('base64url')}`,
      `cursor=${transactionCursor}`,
      `cursor=${'a'.repeat(300)}`,
      `search=${'x'.repeat(101)}`,
    ]) {
      const response = await get(`${ApiPath.slotSessions}?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ status: false, code: Code.InvalidRequest });
    }
  });
});

describe('GET /player/transactions', () => {
  it('answers one row per operation with the player-side amount, counterparty and session columns', async () => {
    const { items } = (await get(`${ApiPath.transactions}?limit=100`)).json();
    // Welcome deposit, cash in, cash out, discount, 12 withdrawals.
    expect(items).toHaveLength(16);
    const cashIn = items.find((i: { type: string }) => i.type === 'Cash In');
    expect(cashIn).toMatchObject({
      from: 'Golden Reels 1',
      amount: -10_000,
      action_code: ActionCode.CashIn,
      machine: 'Golden Reels 1',
      session_id: sessionA,
      start: '2030-01-01T10:00:00.123Z',
      end: '2030-01-01T11:00:00.123Z',
      duration_s: 3600,
      spin_count: 40,
      free_spin_count: 5,
      tag: null,
    });
    expect(cashIn.date).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(items.find((i: { type: string }) => i.type === 'Cash Out')).toMatchObject({
      amount: 10_000,
      from: 'Golden Reels 1',
    });
    expect(items.find((i: { type: string }) => i.type === 'Deposit')).toMatchObject({
      from: 'Cashier',
      amount: 100_000,
      tag: 'welcome deposit',
      machine: null,
      session_id: null,
      start: null,
      duration_s: null,
      spin_count: null,
    });
    expect(items.find((i: { type: string }) => i.type === 'discount')).toMatchObject({
      from: 'Promotions',
      amount: 250,
      action_code: null,
    });
    const withdrawals = items.filter((i: { type: string }) => i.type === 'Withdraw');
    expect(withdrawals.map((w: { amount: number; from: string }) => [w.amount, w.from])).toContainEqual([
      -111,
      'Cashier',
    ]);
    const ids = items.map((i: { id: string }) => Number(i.id));
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });

  it('pages with a cursor, stable when operations are added meanwhile', async () => {
    for (const limit of [1, 7, 10]) {
      const { ids } = await walk(ApiPath.transactions, limit);
      expect(ids).toHaveLength(16);
      expect(new Set(ids).size).toBe(16);
    }
    const first = (await get(`${ApiPath.transactions}?limit=4`)).json();
    await withTransaction(t.ctx.db, (tx) =>
      moveInTransaction(tx, {
        kind: OperationKind.Deposit,
        actionCode: ActionCode.Deposit,
        playerId: demoId,
        from: { kind: 'cashier' },
        to: { kind: 'wallet', playerId: demoId, part: 'cash' },
        amountCents: 1,
        tag: 'between pages',
      }),
    );
    const second = (await get(`${ApiPath.transactions}?limit=4&cursor=${first.next_cursor}`)).json();
    const seen = [...first.items, ...second.items];
    expect(new Set(seen.map((i: { id: string }) => i.id)).size).toBe(8);
    expect(seen.some((i: { tag: string | null }) => i.tag === 'between pages')).toBe(false);
  });

  it('searches type, counterparty, machine and tag', async () => {
    const search = async (text: string) =>
      (await get(`${ApiPath.transactions}?limit=100&search=${encodeURIComponent(text)}`)).json().items;
    expect((await search(' cash in ')).map((i: { type: string }) => i.type)).toEqual(['Cash In']);
    expect((await search('golden')).map((i: { type: string }) => i.type).sort()).toEqual([
      'Cash In',
      'Cash Out',
    ]);
    expect(await search('WITHDRAW')).toHaveLength(12);
    expect(await search('promotions')).toHaveLength(1);
    expect(await search('welcome')).toHaveLength(1);
    expect(await search('alice secret')).toHaveLength(0);
  });

  it("never shows another player's operations", async () => {
    const alice = (await get(`${ApiPath.transactions}?limit=100`, aliceToken)).json().items;
    expect(alice.map((i: { amount: number }) => i.amount).sort()).toEqual([4_242, 50_000].sort());
    const demo = (await get(`${ApiPath.transactions}?limit=100&player_id=${aliceId}`)).json().items;
    expect(demo.some((i: { tag: string | null }) => i.tag === 'alice secret tag')).toBe(false);
  });

  it('refuses bad paging input with 40000', async () => {
    const sessionCursor = (await get(`${ApiPath.slotSessions}?limit=1`)).json().next_cursor;
    for (const query of [
      'limit=-1',
      'limit=500',
      'limit=x',
      'cursor=%3D%3D',
      `cursor=${sessionCursor}`,
      `cursor=${Buffer.from('t:0').toString('base64url')}`,
      `cursor=${Buffer.from('t:99999999999999999999').toString('base64url')}`,
    ]) {
      const response = await get(`${ApiPath.transactions}?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ status: false, code: Code.InvalidRequest });
    }
  });
});

describe('CSV downloads', () => {
  const parseCsv = (text: string) => {
    expect(text.startsWith('\uFEFF')).toBe(true);
    return text.slice(1).split('\r\n').filter(Boolean);
  };

  it('transactions: every matching row, spec columns, decimal amounts, quoting and formula guard', async () => {
    const response = await get(ApiPath.transactionsCsv);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="transactions-\d{4}-\d\d-\d\d\.csv"$/,
    );
    const lines = parseCsv(response.body);
    expect(lines[0]).toBe(
      'Operation Date,Played Session Duration,From,Amount,Type,Machine,Start,End,Spin Count,Free Spin Count,Tag',
    );
    expect(lines).toHaveLength(1 + 17);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^\S+,1:00:00,Golden Reels 1,-100\.00,Cash In,Golden Reels 1,2030-01-01T10:00:00\.123Z,2030-01-01T11:00:00\.123Z,40,5,$/,
      ),
    );
    expect(lines).toContainEqual(expect.stringMatching(/,Cashier,1000\.00,Deposit,,,,,,welcome deposit$/));
    expect(lines).toContainEqual(
      expect.stringMatching(
        /,Promotions,2\.50,discount,,,,,,"'=HYPERLINK\(""http:\/\/evil"",""x""\), really"$/,
      ),
    );
    expect(response.body).not.toContain('alice');
  });

  it('transactions: the search filters the file', async () => {
    const lines = parseCsv((await get(`${ApiPath.transactionsCsv}?search=withdraw`)).body);
    expect(lines).toHaveLength(1 + 12);
  });

  it('slot sessions: all rows, with the net and the search', async () => {
    const response = await get(ApiPath.slotSessionsCsv);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(/filename="slot-sessions-/);
    const lines = parseCsv(response.body);
    expect(lines[0]).toBe(
      'Session,Machine,Brand,Start,End,Played Session Duration,Spin Count,Free Spin Count,Cash In,Cash Out,Net,Status',
    );
    expect(lines).toHaveLength(1 + 25);
    expect(lines[1]).toBe(
      `${sessionA},Golden Reels 1,Golden Reels,2030-01-01T10:00:00.123Z,2030-01-01T11:00:00.123Z,1:00:00,40,5,100.00,125.50,25.50,closed`,
    );
    expect(parseCsv((await get(`${ApiPath.slotSessionsCsv}?search=lucky`)).body)).toHaveLength(1 + 21);
    expect(parseCsv((await get(ApiPath.slotSessionsCsv, aliceToken)).body)).toHaveLength(2);
  });

  it('refuses a too long search', async () => {
    const response = await get(`${ApiPath.slotSessionsCsv}?search=${'y'.repeat(101)}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe(Code.InvalidRequest);
  });
});

describe('authentication', () => {
  it('answers 401 with 40102 without a valid token, and with code 10 for a forged one, on every history route', async () => {
    for (const path of [
      ApiPath.slotSessions,
      ApiPath.transactions,
      ApiPath.slotSessionsCsv,
      ApiPath.transactionsCsv,
    ]) {
      for (const [headers, code] of [
        [{}, Code.InvalidAccessToken],
        [{ authorization: 'Bearer nope' }, Code.InvalidAccessToken],
        // A tampered signature (docs/api.md, "Tokens"): the spec's code 10.
        [{ authorization: `Bearer ${demoToken.slice(0, -3)}xyz` }, Code.SignatureNotVerified],
      ] as const) {
        const response = await t.app.inject({ method: 'GET', url: `/api${path}`, headers });
        expect(response.statusCode, path).toBe(401);
        expect(response.json().code).toBe(code);
      }
    }
  });
});

describe('OpenAPI', () => {
  it('documents the history, chat and quick panel routes with their schemas', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    for (const path of [ApiPath.slotSessions, ApiPath.transactions, ApiPath.slotSessionsCsv, ApiPath.transactionsCsv]) {
      expect(doc.paths[`/api${path}`]?.get, path).toBeDefined();
    }
    expect(doc.paths[`/api${ApiPath.transactionsCsv}`].get.responses['200'].content).toHaveProperty('text/csv');
    expect(doc.paths[`/api${ApiPath.transactions}`].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'cursor',
      'limit',
      'search',
    ]);
    for (const path of [ApiPath.chatContacts, ApiPath.chatUser, ApiPath.chatGetChat, ApiPath.quickPanelData]) {
      expect(doc.paths[path]?.get, path).toBeDefined();
    }
    for (const path of [ApiPath.chatUserData, ApiPath.chatSendMessage]) {
      expect(doc.paths[path]?.post?.requestBody, path).toBeDefined();
    }
  });
});
