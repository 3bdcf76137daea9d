import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Code } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../test/helper.js';
import { REPO_ROOT } from '../config.js';
import { AppError } from '../lib/errors.js';
import { hashMachineKey } from '../modules/machines/machine-keys.js';
import { moveInTransaction, OperationKind, walletBalance } from '../modules/ledger/ledger.js';
import { withTransaction } from '../db/pool.js';
import {
  addBrand,
  addMachine,
  auditCommand,
  createPlayerCommand,
  depositCommand,
  formatGroupedCents,
  formatTable,
  listMachines,
  listPlayers,
  parseAmountCents,
  resetPassword,
  setAvatar,
  setBanned,
  setPin,
  withdrawCommand,
} from './operator-commands.js';
import { runOperator } from './operator.js';

const run = promisify(execFile);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function expectCode(promise: Promise<unknown>, code: number) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected AppError ${code}`).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
}

const validate = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/validate', headers: t.auth(token) });
const login = (username: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/login', payload: { username, password } });

describe('amounts', () => {
  it('turns major units and cents into integer cents exactly', () => {
    expect(parseAmountCents('50')).toBe(5_000);
    expect(parseAmountCents('50.5')).toBe(5_050);
    expect(parseAmountCents('50.00')).toBe(5_000);
    expect(parseAmountCents(' 0.29 ')).toBe(29); // 0.29 * 100 is 28.999999999999996 in floating point
    expect(parseAmountCents('1234567.89')).toBe(123_456_789);
    expect(parseAmountCents('5000', { cents: true })).toBe(5_000);
    for (const bad of ['', '0', '0.00', '-5', '1.234', '1,000.00', 'abc', '1e3', '.5', '5.']) {
      expect(() => parseAmountCents(bad), bad).toThrow(AppError);
    }
    for (const bad of ['50.00', '0', '-1', '99999999999999999999']) {
      expect(() => parseAmountCents(bad, { cents: true }), bad).toThrow(AppError);
    }
  });

  it('formats cents with thousands separators', () => {
    expect(formatGroupedCents(0)).toBe('0.00');
    expect(formatGroupedCents(5)).toBe('0.05');
    expect(formatGroupedCents(100_000)).toBe('1,000.00');
    expect(formatGroupedCents(-123_456_789)).toBe('-1,234,567.89');
    expect(formatTable([{ a: 'x', n: 5 }])).toBe('a  n\n-  -\nx  5');
  });
});

describe('operator commands', () => {
  it('creates a player who can sign in, with a generated password when none is given', async () => {
    const { id, generatedPassword } = await createPlayerCommand(t.ctx.db, {
      username: 'carol',
      email: 'carol@reel.live',
      name: 'Carol',
      pin: '4321',
    });
    expect(id).toBeGreaterThan(0);
    expect(generatedPassword).toMatch(/^[\w-]{12}$/);
    const response = await login('carol', generatedPassword!);
    expect(response.json()).toMatchObject({ status: true, pin_code: true });
    expect(await walletBalance(t.ctx.db, id)).toEqual({
      balance: 0,
      cash: 0,
      credit: 0,
      bonus: 0,
      discount: 0,
    });
    await expectCode(
      createPlayerCommand(t.ctx.db, { username: 'CAROL', email: 'other@reel.live', password: 'secret12' }),
      Code.InvalidRequest,
    );
    await expectCode(
      createPlayerCommand(t.ctx.db, {
        username: 'dave',
        email: 'dave@reel.live',
        password: 'secret12',
        pin: '12',
      }),
      Code.InvalidRequest,
    );
  });

  it('resets a password, lifts a block and signs the player out', async () => {
    const token = await t.login('bobby', 'bobby1234');
    await t.ctx.db.query(
      "UPDATE players SET failed_logins = 3, blocked_until = now() + interval '1 hour' WHERE username = 'bobby'",
    );
    const { revokedTokens } = await resetPassword(t.ctx.db, 'bobby', 'new-secret-1');
    expect(revokedTokens).toBeGreaterThan(0);
    expect((await validate(token)).statusCode).toBe(401);
    expect((await login('bobby', 'bobby1234')).json().code).toBe(Code.LoginIncorrect);
    expect((await login('bobby', 'new-secret-1')).json().status).toBe(true);
    await expectCode(resetPassword(t.ctx.db, 'nobody', 'whatever1'), Code.NotFound);
    await expectCode(resetPassword(t.ctx.db, 'bobby', 'abc'), Code.PasswordTooShort);
  });

  it('sets a PIN as a hash', async () => {
    await setPin(t.ctx.db, 'alice', '987654');
    const { rows } = await t.ctx.db.query<{ pin_hash: string }>(
      "SELECT pin_hash FROM players WHERE username = 'alice'",
    );
    expect(rows[0]!.pin_hash).toMatch(/^\$argon2id\$/);
    expect(rows[0]!.pin_hash).not.toContain('987654');
    await expectCode(setPin(t.ctx.db, 'alice', '12ab'), Code.InvalidRequest);
  });

  it("sets and clears a player's avatar, which the next token carries as photoURL", async () => {
    const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { photoURL?: string };
    await setAvatar(t.ctx.db, 'alice', 'https://cdn.example.com/avatars/alice.png');
    const token = (await login('alice', 'alice1234')).json().token as string;
    expect(claims(token).photoURL).toBe('https://cdn.example.com/avatars/alice.png');
    // A reload's stored-token sign-in carries it too.
    expect(claims((await validate(token)).json().token as string).photoURL).toBe('https://cdn.example.com/avatars/alice.png');
    await setAvatar(t.ctx.db, 'alice', '/avatars/alice.png');
    expect(claims((await login('alice', 'alice1234')).json().token as string).photoURL).toBe('/avatars/alice.png');
    await setAvatar(t.ctx.db, 'alice');
    expect(claims((await login('alice', 'alice1234')).json().token as string)).not.toHaveProperty('photoURL');
    for (const bad of ['http://cdn.example.com/a.png', 'javascript:alert(1)', '//cdn.example.com/a.png', 'avatar.png'])
      await expectCode(setAvatar(t.ctx.db, 'alice', bad), Code.InvalidRequest);
    await expectCode(setAvatar(t.ctx.db, 'nobody', '/a.png'), Code.NotFound);
  });

  it('deposits and withdraws through the ledger with action codes and an idempotency key', async () => {
    const before = (await walletBalance(t.ctx.db, 1)).balance;
    const first = await depositCommand(t.ctx.db, 'demo', 5_050, 'op-key-1');
    expect(first.move.replayed).toBe(false);
    expect(first.wallet.balance).toBe(before + 5_050);
    const again = await depositCommand(t.ctx.db, 'demo', 5_050, 'op-key-1');
    expect(again.move).toMatchObject({ replayed: true, operationId: first.move.operationId });
    expect(again.wallet.balance).toBe(before + 5_050);
    await expectCode(depositCommand(t.ctx.db, 'demo', 1, 'op-key-1'), Code.IdempotencyConflict);

    const out = await withdrawCommand(t.ctx.db, 'demo', 50, 'op-key-2');
    expect(out.wallet.balance).toBe(before + 5_000);
    const { rows } = await t.ctx.db.query(
      'SELECT kind, action_code, amount_cents, tag FROM ledger_operations WHERE id = ANY($1::bigint[]) ORDER BY id',
      [[first.move.operationId, out.move.operationId]],
    );
    expect(rows).toEqual([
      { kind: 'deposit', action_code: 1, amount_cents: 5_050, tag: 'operator' },
      { kind: 'withdraw', action_code: 2, amount_cents: 50, tag: 'operator' },
    ]);
  });

  it('pays out only the cash part', async () => {
    const { id } = await createPlayerCommand(t.ctx.db, {
      username: 'erin',
      email: 'erin@reel.live',
      password: 'secret12',
    });
    await depositCommand(t.ctx.db, 'erin', 1_000, 'erin-1');
    await withTransaction(t.ctx.db, (tx) =>
      moveInTransaction(tx, {
        kind: OperationKind.Bonus,
        playerId: id,
        from: { kind: 'promotions' },
        to: { kind: 'wallet', playerId: id, part: 'bonus' },
        amountCents: 500,
      }),
    );
    await expectCode(withdrawCommand(t.ctx.db, 'erin', 1_001, 'erin-2'), Code.InsufficientBalance);
    expect((await withdrawCommand(t.ctx.db, 'erin', 1_000, 'erin-3')).wallet).toMatchObject({
      balance: 500,
      cash: 0,
      bonus: 500,
    });
  });

  it('bans (signing the player out) and unbans', async () => {
    const token = await t.login('alice', 'alice1234');
    const { revokedTokens } = await setBanned(t.ctx.db, 'alice', true);
    expect(revokedTokens).toBeGreaterThan(0);
    expect((await validate(token)).statusCode).toBe(401);
    expect((await login('alice', 'alice1234')).json().code).toBe(Code.LoginBanned);
    await setBanned(t.ctx.db, 'alice', false);
    expect((await login('alice', 'alice1234')).json().status).toBe(true);
    // The old token stays revoked after the unban.
    expect((await validate(token)).statusCode).toBe(401);
  });

  it('adds brands with jackpot seeds and machines with a one-time agent key', async () => {
    const brandId = await addBrand(t.ctx.db, {
      name: 'Diamond Nights',
      jackpotSeedsCents: [300_000, 60_000],
    });
    const { rows: jackpots } = await t.ctx.db.query(
      'SELECT level, seed_cents, amount_cents FROM jackpots WHERE brand_id = $1 ORDER BY level',
      [brandId],
    );
    expect(jackpots).toEqual([
      { level: 1, seed_cents: 300_000, amount_cents: 300_000 },
      { level: 2, seed_cents: 60_000, amount_cents: 60_000 },
    ]);
    await expectCode(
      addBrand(t.ctx.db, { name: 'diamond nights', jackpotSeedsCents: [] }),
      Code.InvalidRequest,
    );

    const machine = await addMachine(t.ctx.db, {
      brand: 'DIAMOND NIGHTS',
      name: 'Diamond 1',
      videoType: 'camera',
      reservation: true,
    });
    const byId = await addMachine(t.ctx.db, { brand: String(brandId), name: 'Diamond 2' });
    const { rows } = await t.ctx.db.query<{ key_hash: string }>(
      'SELECT key_hash FROM machines WHERE id = $1',
      [machine.id],
    );
    expect(rows[0]!.key_hash).toBe(hashMachineKey(machine.key));
    const listed = (await listMachines(t.ctx.db)).filter((m) => m.brand === 'Diamond Nights');
    expect(listed).toEqual([
      {
        id: machine.id,
        brand: 'Diamond Nights',
        name: 'Diamond 1',
        state: 'offline',
        enabled: true,
        reservation: true,
        video: 'camera',
        credits: 0,
      },
      {
        id: byId.id,
        brand: 'Diamond Nights',
        name: 'Diamond 2',
        state: 'offline',
        enabled: true,
        reservation: false,
        video: 'screen',
        credits: 0,
      },
    ]);
    await expectCode(addMachine(t.ctx.db, { brand: 'No Such Brand', name: 'x' }), Code.NotFound);
  });

  it('lists players with their balances and audits the ledger', async () => {
    const players = await listPlayers(t.ctx.db);
    const demo = players.find((p) => p.username === 'demo')!;
    expect(demo).toMatchObject({ banned: false, blocked: false });
    expect(demo.balance).toBe((await walletBalance(t.ctx.db, demo.id)).balance);
    expect(players.map((p) => p.username)).toEqual(
      expect.arrayContaining(['demo', 'alice', 'bobby', 'carol', 'erin']),
    );
    expect((await auditCommand(t.ctx.db)).ok).toBe(true);
  });
});

/** What a run of the command line said: its exit code and its two streams. */
interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

describe('operator command line', () => {
  // The test app's audit key: the trail's heads are signed with one key, wherever they are written.
  const cliEnv = () => ({ DATABASE_URL: t.databaseUrl, AUDIT_KEY_FILE: t.ctx.config.auditKeyFile });

  /** The real process (`tsx operator.ts`): its exit status and output, as a shell sees them. */
  const subprocess = (...args: string[]): Promise<CliRun> =>
    run(path.join(REPO_ROOT, 'node_modules/.bin/tsx'), ['apps/server/src/cli/operator.ts', ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...cliEnv() },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({
        code: error.code,
        stdout: error.stdout,
        stderr: error.stderr,
      }),
    );

  /**
   * The same program in this process (`runOperator`, what the process's main calls before exiting
   * with its result): a Node start with tsx and the server's modules costs ~3 s of CPU per call, so
   * the process itself is started only where its exit status and streams are the point.
   */
  const inProcess = async (...args: string[]): Promise<CliRun> => {
    const streams = { stdout: '', stderr: '' };
    const capture = (name: 'stdout' | 'stderr') =>
      vi.spyOn(process[name], 'write').mockImplementation((chunk: string | Uint8Array) => ((streams[name] += String(chunk)), true));
    const spies = [capture('stdout'), capture('stderr')];
    const saved = { DATABASE_URL: process.env.DATABASE_URL, AUDIT_KEY_FILE: process.env.AUDIT_KEY_FILE };
    Object.assign(process.env, cliEnv());
    try {
      const code = await runOperator(['node', 'operator.ts', ...args]);
      return { code, ...streams };
    } finally {
      for (const spy of spies) spy.mockRestore();
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  };

  it('the process: exit 0 with its output, 1 with the refusal and its code, 2 on bad usage; never a stack trace', async () => {
    const [deposit, unknown, usage] = await Promise.all([
      subprocess('deposit', 'demo', '12.34', '--key', 'sub-1'),
      subprocess('withdraw', 'nobody', '5'),
      subprocess('deposit'),
    ]);
    expect(deposit).toMatchObject({ code: 0, stderr: '' });
    expect(deposit.stdout).toMatch(/Deposited 12\.34 TRY to demo: operation #\d+, key sub-1\./);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('Error 40400: no player "nobody"');
    expect(usage.code).toBe(2);
    for (const result of [unknown, usage]) expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 90_000);

  it('deposits once per key, lists, audits and reports errors with codes and exit status', async () => {
    const first = await inProcess('deposit', 'demo', '12.34', '--key', 'sub-2');
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toMatch(/Deposited 12\.34 TRY to demo: operation #\d+, key sub-2\./);
    const again = await inProcess('deposit', 'demo', '1234', '--cents', '--key', 'sub-2');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Already done');

    // One after another: the streams are captured for the whole process.
    const list = await inProcess('list-players');
    const audit = await inProcess('audit');
    const badAmount = await inProcess('deposit', 'demo', '1.234');
    const malfunctions = await inProcess('malfunctions');
    const badLimit = await inProcess('malfunctions', '--limit', 'all');
    expect(malfunctions).toMatchObject({ code: 0, stdout: 'No malfunctions on record.\n' });
    expect(badLimit.code).toBe(1);
    expect(badLimit.stderr).toMatch(/^Error 40000: --limit/);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^id\s+username\s+email/);
    expect(list.stdout).toMatch(/demo\s+demo@reel\.live/);
    expect(audit).toMatchObject({ code: 0 });
    expect(audit.stdout).toContain('Ledger OK.');
    expect(badAmount.code).toBe(1);
    expect(badAmount.stderr).toMatch(/^Error 40000: amount "1\.234"/);
    expect(badAmount.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('create-staff prints the account once; verify-audit exits 0 on an intact trail and 1 naming the first bad seq', async () => {
    const created = await inProcess('create-staff', 'floor9', '--role', 'staff', '--reason', 'new hire');
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toMatch(/Created operator floor9 \(id \d+, role staff\)\.\nSign in at \/admin with username floor9 and password \(shown once\): \S{12,}/);
    expect((await inProcess('create-staff', 'floor9', '--role', 'staff')).stderr.trim()).toBe('Error 40904: This username is already taken');
    expect((await inProcess('create-staff', 'floor10', '--role', 'boss')).code).toBe(1);

    const intact = await inProcess('verify-audit');
    expect(intact).toMatchObject({ code: 0 });
    expect(intact.stdout).toMatch(/^Audit trail intact: \d+ row\(s\)/);
    const { rows } = await t.ctx.db.query<{ seq: number }>("SELECT seq FROM audit_log WHERE action = 'operator.create' ORDER BY seq DESC LIMIT 1");
    const seq = rows[0]!.seq;
    const client = await t.ctx.db.connect();
    try {
      // A superuser with the triggers off edits the row.
      await client.query('SET session_replication_role = replica');
      await client.query("UPDATE audit_log SET reason = 'nothing happened' WHERE seq = $1", [seq]);
      await client.query('SET session_replication_role = origin');
    } finally {
      client.release();
    }
    const broken = await inProcess('verify-audit');
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(`Audit trail BROKEN at seq ${seq}:`);
  }, 60_000);
});
