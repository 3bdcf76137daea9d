/**
 * The console's player actions and pages: each action writes exactly one audit row in its own
 * transaction (a refused or failed action none), money corrections are idempotent by key, a reason
 * is required, and the readers answer what the actions did.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, IDEMPOTENCY_HEADER } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';
import { Topic } from '../../lib/bus.js';
import { depositCommand, setBanned as cliSetBanned } from '../../cli/operator-commands.js';

let t: TestApp;
let admin: string;
let staff: string;
let demoId: number;
let aliceId: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.operatorLogin('admin', 'admin1234');
  staff = await t.operatorLogin('staff1', 'staff1234');
  const ids = await t.ctx.db.query<{ id: number; username: string }>("SELECT id, username FROM players WHERE username IN ('demo', 'alice')");
  demoId = ids.rows.find((r) => r.username === 'demo')!.id;
  aliceId = ids.rows.find((r) => r.username === 'alice')!.id;
});
afterAll(() => t?.close());

const auditRows = async () =>
  (await t.ctx.db.query<{ seq: number; actor: string; action: string; target: string; before: unknown; after: unknown; reason: string }>('SELECT * FROM audit_log ORDER BY seq')).rows;

/** Runs `call` and returns its response with the audit rows it added. */
async function withAudit(call: () => Promise<LightMyRequestResponse>) {
  const before = (await auditRows()).length;
  const response = await call();
  return { response, added: (await auditRows()).slice(before) };
}

const post = (token: string, url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers: { ...t.auth(token), ...headers } });

describe('money corrections (admin only)', () => {
  it('a deposit moves money once per key, with one audit row naming who, why, before and after', async () => {
    const deposit = (amount: number, key: string) => post(admin, `/api/admin/players/${demoId}/deposit`, { amount, reason: 'cashier desk' }, { [IDEMPOTENCY_HEADER]: key });
    const first = await withAudit(() => deposit(2_500, 'desk-1'));
    expect(first.response.json()).toMatchObject({ status: true, replayed: false, wallet: { cash: 102_500 } });
    expect(first.added).toEqual([
      expect.objectContaining({
        actor: 'operator:admin',
        action: 'player.deposit',
        target: `player:${demoId}`,
        reason: 'cashier desk',
        before: { cash: 100_000, balance: 100_000 },
        after: expect.objectContaining({ cash: 102_500, amount: 2_500, idempotency_key: 'desk-1' }),
      }),
    ]);
    const again = await withAudit(() => deposit(2_500, 'desk-1'));
    expect(again.response.json()).toMatchObject({ replayed: true, operation_id: first.response.json<{ operation_id: number }>().operation_id });
    expect(again.added).toEqual([]);
    const conflict = await withAudit(() => deposit(9_999, 'desk-1'));
    expect(conflict.response.json()).toMatchObject({ code: Code.IdempotencyConflict });
    expect(conflict.added).toEqual([]);
  });

  it('refuses without a key, without a reason (40003), and a failed withdrawal leaves no row', async () => {
    const noKey = await post(admin, `/api/admin/players/${demoId}/deposit`, { amount: 100, reason: 'x' });
    expect(noKey.statusCode).toBe(400);
    const noReason = await withAudit(() => post(admin, `/api/admin/players/${demoId}/deposit`, { amount: 100, reason: '  ' }, { [IDEMPOTENCY_HEADER]: 'k-2' }));
    expect(noReason.response.json()).toMatchObject({ status: false, code: Code.ReasonRequired });
    expect(noReason.added).toEqual([]);
    const tooMuch = await withAudit(() => post(admin, `/api/admin/players/${aliceId}/withdraw`, { amount: 10_000_000, reason: 'payout' }, { [IDEMPOTENCY_HEADER]: 'k-3' }));
    expect(tooMuch.response.json()).toMatchObject({ code: Code.InsufficientBalance });
    expect(tooMuch.added).toEqual([]);
    const withdrawn = await withAudit(() => post(admin, `/api/admin/players/${aliceId}/withdraw`, { amount: 1_000, reason: 'payout' }, { [IDEMPOTENCY_HEADER]: 'k-4' }));
    expect(withdrawn.response.json()).toMatchObject({ wallet: { cash: 49_000 } });
    expect(withdrawn.added.map((r) => r.action)).toEqual(['player.withdraw']);
  });

  it('staff cannot correct money', async () => {
    const refused = await withAudit(() => post(staff, `/api/admin/players/${demoId}/deposit`, { amount: 100, reason: 'x' }, { [IDEMPOTENCY_HEADER]: 'k-5' }));
    expect(refused.response.json()).toMatchObject({ code: Code.RoleNotAllowed });
    expect(refused.added).toEqual([]);
  });
});

describe('account actions', () => {
  it('a ban signs the player out at once (revocation published) and is one row; unban another', async () => {
    const token = await t.login('bobby', 'bobby1234');
    const bobbyId = (await t.ctx.db.query<{ id: number }>("SELECT id FROM players WHERE username = 'bobby'")).rows[0]!.id;
    const revoked = new Promise((resolve) => {
      const stop = t.ctx.bus.subscribe(Topic.tokenRevoked, (message) => {
        if ((message as { playerId?: number }).playerId === bobbyId) resolve(stop());
      });
    });
    const ban = await withAudit(() => post(staff, `/api/admin/players/${bobbyId}/ban`, { reason: 'chargeback' }));
    expect(ban.response.json()).toMatchObject({ player: { banned: true }, signed_out: 1 });
    expect(ban.added).toEqual([expect.objectContaining({ actor: 'operator:staff1', action: 'player.ban', before: { banned: false }, after: { banned: true, signed_out: 1 }, reason: 'chargeback' })]);
    await revoked;
    expect((await t.app.inject({ url: '/api/player/balance', headers: t.auth(token) })).statusCode).toBe(401);
    const unban = await withAudit(() => post(staff, `/api/admin/players/${bobbyId}/unban`, { reason: 'resolved' }));
    expect(unban.response.json()).toMatchObject({ player: { banned: false } });
    expect(unban.added.map((r) => r.action)).toEqual(['player.unban']);
  });

  it('unlock lifts a sign-in block; a note is kept; password and PIN are admin-only and never in the trail', async () => {
    await t.ctx.db.query("UPDATE players SET failed_logins = 3, blocked_until = now() + interval '10 minutes' WHERE id = $1", [aliceId]);
    const unlock = await withAudit(() => post(staff, `/api/admin/players/${aliceId}/unlock`, { reason: 'verified by phone' }));
    expect(unlock.response.json()).toMatchObject({ player: { locked: false, failed_logins: 0 } });
    expect(unlock.added).toEqual([expect.objectContaining({ action: 'player.unlock', after: { failed_logins: 0, blocked_until: null } })]);

    const note = await withAudit(() => post(staff, `/api/admin/players/${aliceId}/notes`, { text: 'Asked about limits' }));
    expect(note.response.statusCode).toBe(200);
    expect(note.added).toEqual([expect.objectContaining({ action: 'player.note', reason: 'Asked about limits' })]);

    expect((await post(staff, `/api/admin/players/${aliceId}/password`, { password: 'new-pass-1', reason: 'x' })).statusCode).toBe(403);
    const reset = await withAudit(() => post(admin, `/api/admin/players/${aliceId}/password`, { password: 'new-pass-1', reason: 'forgot it' }));
    expect(reset.response.statusCode).toBe(200);
    expect(JSON.stringify(reset.added)).not.toContain('new-pass-1');
    expect(await t.login('alice', 'new-pass-1')).toEqual(expect.any(String));
    const pin = await withAudit(() => post(admin, `/api/admin/players/${aliceId}/pin`, { pin: '4567', reason: 'asked' }));
    expect(pin.added).toEqual([expect.objectContaining({ action: 'player.set-pin', after: { pin_set: true } })]);
    expect(JSON.stringify(pin.added)).not.toContain('4567');
  });

  it('an action on a missing player is a 404 and leaves no row', async () => {
    const missing = await withAudit(() => post(staff, '/api/admin/players/999999/ban', { reason: 'x' }));
    expect(missing.response.statusCode).toBe(404);
    expect(missing.added).toEqual([]);
  });

  it('the command line writes its row as cli:<os user>', async () => {
    const before = (await auditRows()).length;
    await depositCommand(t.ctx.db, 'demo', 100, 'cli-key-1', 'bank transfer 42');
    await cliSetBanned(t.ctx.db, 'bobby', false);
    const added = (await auditRows()).slice(before);
    expect(added.map((r) => [r.action, r.reason])).toEqual([
      ['player.deposit', 'bank transfer 42'],
      ['player.unban', 'operator command line (no reason given)'],
    ]);
    expect(added.every((r) => r.actor.startsWith('cli:'))).toBe(true);
  });
});

describe('the readers', () => {
  it('search and a player page show wallet parts, sessions, transactions, sign-ins and notes', async () => {
    const found = await t.app.inject({ url: '/api/admin/players?q=ali', headers: t.auth(staff) });
    expect(found.json()).toMatchObject({ total: 1, items: [{ username: 'alice' }] });
    const page = await t.app.inject({ url: `/api/admin/players/${aliceId}`, headers: t.auth(staff) });
    const body = page.json<{ wallet: object; transactions: unknown[]; logins: { type: string; ip: string }[]; notes: { text: string }[] }>();
    expect(body.wallet).toMatchObject({ cash: 49_000, credit: 0, bonus: 0, discount: 0, currency: 'TRY' });
    expect(body.transactions.length).toBeGreaterThanOrEqual(2);
    expect(body.logins[0]).toMatchObject({ type: 'login success', ip: '127.0.0.1' });
    expect(body.notes.map((n) => n.text)).toEqual(['Asked about limits']);
  });

  it('ledger accounts and transfers page, the ledger audit passes, jackpot pools list', async () => {
    const accounts = await t.app.inject({ url: `/api/admin/ledger/accounts?player_id=${demoId}`, headers: t.auth(staff) });
    expect(accounts.json()).toMatchObject({ total: 4 });
    const transfers = await t.app.inject({ url: `/api/admin/ledger/transfers?player_id=${demoId}&limit=2`, headers: t.auth(staff) });
    const tBody = transfers.json<{ items: { entries: { amount: number }[] }[]; total: number }>();
    expect(tBody.items).toHaveLength(2);
    expect(tBody.total).toBeGreaterThanOrEqual(3);
    for (const item of tBody.items) expect(item.entries.reduce((sum, e) => sum + e.amount, 0)).toBe(0);
    expect((await t.app.inject({ url: '/api/admin/ledger/audit', headers: t.auth(staff) })).json()).toMatchObject({ ok: true, players: [] });
    expect((await t.app.inject({ url: '/api/admin/jackpots', headers: t.auth(staff) })).json<{ items: unknown[] }>().items).toHaveLength(9);
  });

  it('the audit trail filters by actor, action (or prefix), target and time, and verifies', async () => {
    const get = async (query: string) => (await t.app.inject({ url: `/api/admin/audit?${query}`, headers: t.auth(staff) })).json<{ items: { action: string; actor: string }[]; total: number }>();
    expect((await get('action=player.ban')).items.map((r) => r.action)).toEqual(['player.ban']);
    expect((await get('action=player.')).total).toBe((await auditRows()).length);
    expect((await get('actor=operator:staff1')).items.every((r) => r.actor === 'operator:staff1')).toBe(true);
    // Alice: the withdrawal, unlock, note, password and PIN.
    expect((await get(`target=player:${aliceId}`)).total).toBe(5);
    expect((await get(`from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).total).toBe(0);
    const verify = await t.app.inject({ url: '/api/admin/audit/verify', headers: t.auth(staff) });
    expect(verify.json()).toMatchObject({ ok: true, first_bad_seq: null, rows: (await auditRows()).length });
  });
});
