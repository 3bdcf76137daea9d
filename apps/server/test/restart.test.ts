/**
 * kill -9 during a session: real server and cabinet processes on a real database. After a server
 * restart the session is recovered, closes at the end of its grace period, and the player's money
 * is back in the wallet to the cent; the ledger still sums to zero. After a cabinet restart (its
 * credit meter lives in its critical memory) the session goes on with the same credits, a game
 * killed mid-spin is played out, and every cent follows from the recorded games.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createPool, type Db } from '../src/db/pool.js';
import { seedDemo } from '../src/demo/seed.js';
import { migrate } from '../src/db/migrate.js';
import { auditLedger, walletBalance } from '../src/modules/ledger/ledger.js';
import { auditPlayers } from '../src/modules/ledger/player-audit.js';
import { REPO_ROOT } from '../src/config.js';
import { createTestDatabase } from './helper.js';
import { freePort } from '@reel/process';

const GRACE_MS = 3_000;


async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

let db: Db;
let drop: () => Promise<void>;
let dataDir: string;
let port: number;
let databaseUrl: string;
const processes: ChildProcess[] = [];

function startProcess(entry: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, entry)], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.resume();
  child.stderr!.resume();
  processes.push(child);
  return child;
}

const serverEnv = () => ({
  PORT: String(port),
  HOST: '127.0.0.1',
  DATABASE_URL: databaseUrl,
  DATA_DIR: dataDir,
  MEDIA: 'false',
  LOG_LEVEL: 'warn',
  SESSION_GRACE_MS: String(GRACE_MS),
  SEED_DEMO: 'false',
});

async function startServer() {
  const server = startProcess('apps/server/src/main.ts', serverEnv());
  await waitUntil(async () => (await fetch(`http://127.0.0.1:${port}/check`)).ok, 90_000, 'the server');
  return server;
}

beforeAll(async () => {
  const database = await createTestDatabase();
  databaseUrl = database.url;
  drop = database.drop;
  db = createPool(databaseUrl, 4);
  await migrate(db);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reel-restart-'));
  await seedDemo(db, dataDir);
  port = await freePort();
}, 60_000);

afterAll(async () => {
  for (const child of processes) if (child.exitCode === null) child.kill('SIGKILL');
  await db.end();
  await drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('kill -9 during a session', () => {
  it('recovers the session and returns every cent', async () => {
    let server = await startServer();
    startProcess('apps/cabinet/src/main.ts', {
      AGENT_URL: `ws://127.0.0.1:${port}/ws/agent`,
      CABINET_KEYS_FILE: path.join(dataDir, 'machine-keys.json'),
      CABINET_IDS: '1',
    });
    const base = `http://127.0.0.1:${port}`;
    const { token } = (await (
      await fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'demo', password: 'demo1234' }) })
    ).json()) as { token: string };
    const { rows } = await db.query<{ id: number }>("SELECT id FROM players WHERE username = 'demo'");
    const demo = rows[0]!.id;
    const before = (await walletBalance(db, demo)).balance;
    await waitUntil(async () => (await db.query("SELECT 1 FROM machines WHERE id = 1 AND cabinet_state = 'idle'")).rowCount === 1, 60_000, 'the cabinet');

    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws/game?token=${token}`);
    const messages: { event: string; data: any }[] = [];
    let idleMeters: { creditsCents: number } | null = null;
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw));
      // The newest machine view decides: a spin's in_game (or in_bonus) view clears an older idle one.
      if (message.event === 'machine') idleMeters = message.data.cabinetState === 'idle' && message.data.freeSpinsLeft === 0 ? message.data : null;
      else messages.push(message);
    });
    await new Promise((resolve) => socket.on('open', resolve));
    const next = async (event: string) => {
      await waitUntil(async () => messages.some((m) => m.event === event), 30_000, event);
      return messages.splice(messages.findIndex((m) => m.event === event), 1)[0]!.data;
    };
    socket.send(JSON.stringify({ event: 'init', data: { machineID: 1, token, protocol: 1 } }));
    await next('joined');
    socket.send(JSON.stringify({ event: 'cashin', data: { amountCents: 5_000, idempotencyKey: 'restart-1' } }));
    await next('cashedIn');
    // A scatter starts a free-spins round the cabinet plays by itself (10+ games of ~2.3 s), so
    // each spin waits for the machine to be idle again and the credits are read from its meters.
    let creditsBeforeCrash = 0;
    // The previous spin's free games leave cycles and idle views behind, so each spin waits for its
    // own cycle (by command id), then for an idle view that shows the last cycle's credits.
    const cycles = () => messages.filter((m) => m.event === 'cycle').map((m) => m.data);
    for (let i = 0; i < 4; i++) {
      idleMeters = null;
      socket.send(JSON.stringify({ event: 'spin', data: { commandId: `spin-${i}` } }));
      await waitUntil(async () => cycles().some((c) => c.commandId === `spin-${i}`), 30_000, `the cycle of spin-${i}`);
      await waitUntil(
        async () => {
          const last = cycles().at(-1);
          return idleMeters !== null && last.freeSpinsLeft === 0 && (last.handPay || idleMeters.creditsCents === last.creditsAfterCents);
        },
        120_000,
        'the machine to be idle after the spin',
      );
      creditsBeforeCrash = idleMeters!.creditsCents;
    }

    server.kill('SIGKILL');
    await new Promise((resolve) => server.once('exit', resolve));
    socket.terminate();
    expect((await db.query("SELECT status FROM slot_sessions WHERE player_id = $1 AND status <> 'closed'", [demo])).rows[0].status).toBe('active');

    server = await startServer();
    // Recovered as disconnected (Waiting), then closed by the grace period with a cash out.
    await waitUntil(async () => (await db.query("SELECT 1 FROM slot_sessions WHERE player_id = $1 AND status = 'closed'", [demo])).rowCount === 1, GRACE_MS + 30_000, 'the session to close');
    const after = (await walletBalance(db, demo)).balance;
    expect(after).toBe(before - 5_000 + creditsBeforeCrash);
    const audit = await auditLedger(db);
    expect(audit).toMatchObject({ ok: true, total: 0 });
    const session = (await db.query("SELECT spins, cash_in_cents, cash_out_cents, close_reason FROM slot_sessions WHERE player_id = $1", [demo])).rows[0];
    expect(session).toMatchObject({ spins: 4, cash_in_cents: 5_000, cash_out_cents: creditsBeforeCrash, close_reason: 'grace period over' });
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }, 480_000);
});

describe('kill -9 of the cabinet', () => {
  it('keeps the credits, plays out a game killed mid-spin, and pays every cent the records give', async () => {
    const server = await startServer();
    const cabinetEnv = { AGENT_URL: `ws://127.0.0.1:${port}/ws/agent`, CABINET_KEYS_FILE: path.join(dataDir, 'machine-keys.json'), CABINET_IDS: '2' };
    let cabinet = startProcess('apps/cabinet/src/main.ts', cabinetEnv);
    const base = `http://127.0.0.1:${port}`;
    const { token } = (await (
      await fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'alice', password: 'alice1234' }) })
    ).json()) as { token: string };
    const alice = (await db.query<{ id: number }>("SELECT id FROM players WHERE username = 'alice'")).rows[0]!.id;
    const before = (await walletBalance(db, alice)).balance;
    await waitUntil(async () => (await db.query("SELECT 1 FROM machines WHERE id = 2 AND cabinet_state = 'idle'")).rowCount === 1, 60_000, 'the cabinet');

    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws/game?token=${token}`);
    const messages: { event: string; data: any }[] = [];
    let view: { cabinetState: string; creditsCents: number; freeSpinsLeft: number } | null = null;
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw));
      if (message.event === 'machine') view = message.data;
      else messages.push(message);
    });
    await new Promise((resolve) => socket.on('open', resolve));
    const idle = () => view !== null && view.cabinetState === 'idle' && view.freeSpinsLeft === 0;
    socket.send(JSON.stringify({ event: 'init', data: { machineID: 2, token, protocol: 1 } }));
    await waitUntil(async () => messages.some((m) => m.event === 'joined'), 30_000, 'joined');
    socket.send(JSON.stringify({ event: 'cashin', data: { amountCents: 20_000, idempotencyKey: 'cabinet-kill-1' } }));
    await waitUntil(async () => messages.some((m) => m.event === 'cashedIn'), 30_000, 'cashedIn');
    socket.send(JSON.stringify({ event: 'spin', data: { commandId: 'k-1' } }));
    await waitUntil(async () => messages.some((m) => m.event === 'cycle'), 30_000, 'the first game');
    await waitUntil(async () => idle(), 180_000, 'the machine to be idle');
    const creditsBeforeKill = view!.creditsCents;

    const restartCabinet = async () => {
      cabinet.kill('SIGKILL');
      await new Promise((resolve) => cabinet.once('exit', resolve));
      await waitUntil(async () => view?.cabinetState === 'offline', 30_000, 'the machine offline');
      cabinet = startProcess('apps/cabinet/src/main.ts', cabinetEnv);
      await waitUntil(async () => idle(), 180_000, 'the machine back and idle');
    };
    // 1. Killed while idle: the credits come back from its memory.
    await restartCabinet();
    const creditsAfterRestart = view!.creditsCents;
    expect(creditsAfterRestart).toBe(creditsBeforeKill);

    // 2. Killed while the reels turn: the game is played out after the restart.
    socket.send(JSON.stringify({ event: 'spin', data: { commandId: 'k-2' } }));
    await waitUntil(async () => view?.cabinetState === 'in_game', 30_000, 'the second game to start');
    await restartCabinet();
    const openSession = async () =>
      (await db.query("SELECT id, cash_in_cents - cash_out_cents + win_cents - bet_cents AS credits, malfunction FROM slot_sessions WHERE player_id = $1 AND status <> 'closed'", [alice])).rows[0];
    // The played-out game reaches the records a moment after the machine shows idle again.
    await waitUntil(async () => view!.creditsCents === Number((await openSession()).credits), 15_000, 'the records to match the meter');
    const session = await openSession();
    expect(session.malfunction).toBeNull();
    expect(view!.creditsCents).toBe(Number(session.credits));
    expect(messages.some((m) => m.event === 'info' && m.data.code === 50301)).toBe(false);

    socket.send(JSON.stringify({ event: 'leave', data: {} }));
    await waitUntil(async () => (await db.query("SELECT 1 FROM slot_sessions WHERE id = $1 AND status = 'closed'", [session.id])).rowCount === 1, 30_000, 'the session to close');
    const games = (await db.query('SELECT coalesce(sum(win_cents - bet_cents), 0)::int AS result, count(*)::int AS n FROM game_cycles WHERE session_id = $1', [session.id])).rows[0];
    const after = (await walletBalance(db, alice)).balance;
    console.log(`[cabinet kill -9] credits before kill ${creditsBeforeKill}, after restart ${creditsAfterRestart}; games ${games.n}, recorded result ${games.result}; wallet ${before} → ${after}`);
    expect(after).toBe(before + games.result);
    expect(await auditLedger(db)).toMatchObject({ ok: true, total: 0 });
    expect((await auditPlayers(db)).ok).toBe(true);
    socket.terminate();
    server.kill('SIGTERM');
  }, 480_000);
});
