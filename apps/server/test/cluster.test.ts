/**
 * Several servers on real parts (docs/scale.md): three cluster servers on one PostgreSQL (this
 * run's own database), NATS (the system one, under this run's own subject prefix) and HAProxy.
 * A player on server A plays a cabinet connected to server B; a lobby viewer on server C sees the
 * machine's status change. Then A, the session owner, is killed with -9: another server takes the
 * lease, the player's client reconnects through HAProxy, continues with the same credits and cashes
 * out; the ledger audit is clean. Skipped, with the reason printed, without NATS or HAProxy.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { spawnTied, freePort } from '@reel/process';
import { REPO_ROOT } from '../src/config.js';
import { createPool, type Db } from '../src/db/pool.js';
import { auditLedger, walletBalance } from '../src/modules/ledger/ledger.js';
import { auditPlayers } from '../src/modules/ledger/player-audit.js';
import { clusterTestsMissing, natsUrl } from '../src/cluster/nats-available.js';
import { prepareDatabase, startCluster, type Cluster } from '../src/cluster/launch/launch.js';
import { createTestDatabase } from './helper.js';

const skipReason = await clusterTestsMissing();
if (skipReason) console.log(`[cluster] cluster tests skipped: ${skipReason}`);


async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await Promise.resolve(check()).catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

interface Message {
  event: string;
  data: any;
}

/** A socket that keeps what it received, to wait for. */
function collect(url: string) {
  const socket = new WebSocket(url);
  const messages: Message[] = [];
  socket.on('message', (raw) => messages.push(JSON.parse(String(raw)) as Message));
  const opened = new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return {
    socket,
    messages,
    opened,
    send: (event: string, data: unknown) => socket.send(JSON.stringify({ event, data })),
    async next(event: string, match: (m: Message) => boolean = () => true, timeoutMs = 30_000) {
      await waitUntil(() => messages.some((m) => m.event === event && match(m)), timeoutMs, event).catch((error: Error) => {
        throw new Error(`${error.message}; the socket got ${JSON.stringify(messages.slice(-5))}, state ${socket.readyState}`);
      });
      return messages.splice(messages.findIndex((m) => m.event === event && match(m)), 1)[0]!.data;
    },
  };
}

let cluster: Cluster | undefined;
let cabinet: ChildProcess | undefined;
let db: Db;
let drop: () => Promise<void>;
let dataDir: string;

describe.skipIf(skipReason !== null)('three servers behind HAProxy on NATS', () => {
  beforeAll(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    db = createPool(database.url, 4);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reel-cluster-'));
    await prepareDatabase(database.url, dataDir);
    const ports = await Promise.all([1, 2, 3, 4].map(() => freePort()));
    cluster = await startCluster({
      port: ports[0]!,
      serverPorts: ports.slice(1),
      databaseUrl: database.url,
      natsUrl: natsUrl(),
      natsPrefix: `reel-t-${randomBytes(4).toString('hex')}`,
      dataDir,
      jwtSecret: randomBytes(32).toString('hex'),
      cabinets: null,
      env: { MEDIA: 'false', LOG_LEVEL: 'warn', SESSION_GRACE_MS: '60000' },
      output: process.env.CLUSTER_TEST_LOG ? (name, line) => console.log(`[${name}] ${line}`) : undefined,
    });
  }, 180_000);

  afterAll(async () => {
    cabinet?.kill('SIGKILL');
    await cluster?.stop();
    await db?.end();
    await drop?.();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('a player on A plays a cabinet on B, a viewer on C sees it, and A dies without a cent lost', async () => {
    const c = cluster!;
    // A: the session owner (the hardest server to lose); B holds the cabinet; C shows the lobby.
    await waitUntil(async () => (await db.query('SELECT owner FROM cluster_lease')).rowCount === 1, 30_000, 'a session owner');
    const ownerId = (await db.query<{ owner: string }>('SELECT owner FROM cluster_lease')).rows[0]!.owner;
    const a = c.servers.find((s) => s.id === ownerId)!;
    const [b, third] = c.servers.filter((s) => s !== a) as [typeof a, typeof a];
    cabinet = spawnTied(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'apps/cabinet/src/main.ts')], {
      cwd: REPO_ROOT,
      env: { ...process.env, AGENT_URL: `ws://127.0.0.1:${b.port}/ws/agent`, CABINET_KEYS_FILE: path.join(dataDir, 'machine-keys.json'), CABINET_IDS: '1,2' },
      stdio: 'ignore',
    });
    await waitUntil(async () => (await db.query("SELECT 1 FROM machines WHERE id IN (1, 2) AND cabinet_state = 'idle'")).rowCount === 2, 90_000, 'the cabinet on B');

    const check = (await (await fetch(`${c.url}/check`)).json()) as { server?: string };
    expect(c.servers.map((s) => s.id)).toContain(check.server);

    const login = async (base: string, username = 'demo', password = 'demo1234') =>
      ((await (await fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) })).json()) as { token: string }).token;
    const token = await login(a.url);
    const demo = (await db.query<{ id: number }>("SELECT id FROM players WHERE username = 'demo'")).rows[0]!.id;
    const before = (await walletBalance(db, demo)).balance;

    const viewer = collect(`ws://127.0.0.1:${third.port}/ws/notifications?token=${await login(third.url)}`);
    await viewer.opened;
    await viewer.next('hello');

    let game = collect(`ws://127.0.0.1:${a.port}/ws/game?token=${token}`);
    await game.opened;
    game.send('init', { machineID: 1, token, protocol: 1 });
    await game.next('joined');
    await viewer.next('machine', (m) => m.data.id === 1 && m.data.status === 'playing');

    game.send('cashin', { amountCents: 5_000, idempotencyKey: 'cluster-1' });
    await game.next('cashedIn');
    const idleView = (g: typeof game) => [...g.messages].reverse().find((m) => m.event === 'machine')?.data as { cabinetState: string; creditsCents: number; freeSpinsLeft: number } | undefined;
    const spin = async (g: typeof game, commandId: string) => {
      g.send('spin', { commandId });
      const cycle = await g.next('cycle', (m) => m.data.commandId === commandId, 60_000);
      await waitUntil(() => {
        const view = idleView(g);
        return view?.cabinetState === 'idle' && view.freeSpinsLeft === 0;
      }, 180_000, 'the machine idle again');
      return cycle as { creditsAfterCents: number };
    };
    await spin(game, 'x-1');
    const creditsBefore = idleView(game)!.creditsCents;

    // A second player whose game socket is on C, a server that survives: when the owner changes,
    // C closes the socket (1012) so the client joins again under the new owner.
    const aliceToken = await login(third.url, 'alice', 'alice1234');
    const alice = collect(`ws://127.0.0.1:${third.port}/ws/game?token=${aliceToken}`);
    await alice.opened;
    alice.send('init', { machineID: 2, token: aliceToken, protocol: 1 });
    await alice.next('joined');
    let aliceClose = 0;
    alice.socket.once('close', (code) => (aliceClose = code));

    // kill -9 of A: the owner and the player's server.
    a.child.kill('SIGKILL');
    await new Promise((resolve) => a.child.once('exit', resolve));
    await waitUntil(() => game.socket.readyState === WebSocket.CLOSED, 10_000, 'the player socket to drop');
    // The client reconnects through HAProxy, to whichever live server it gets, and joins again.
    // Like the web app's game channel, it tries again when the connection fails.
    for (let attempt = 0; ; attempt++) {
      game = collect(`${c.url.replace('http', 'ws')}/ws/game?token=${token}`);
      const opened = await game.opened.then(() => true, () => false);
      if (opened) break;
      if (attempt === 20) throw new Error('could not reconnect through HAProxy');
      await new Promise((r) => setTimeout(r, 500));
    }
    game.send('init', { machineID: 1, token, protocol: 1 });
    const joined = await game.next('joined', () => true, 60_000);
    expect(joined.resumed).toBe(true);
    expect(joined.machine.creditsCents).toBe(creditsBefore);
    const newOwner = (await db.query<{ owner: string }>('SELECT owner FROM cluster_lease')).rows[0]!.owner;
    expect(newOwner).not.toBe(a.id);

    await waitUntil(() => aliceClose !== 0, 30_000, "alice's socket on C to be closed for the new owner");
    expect(aliceClose).toBe(1012);
    const aliceAgain = collect(`ws://127.0.0.1:${third.port}/ws/game?token=${aliceToken}`);
    await aliceAgain.opened;
    aliceAgain.send('init', { machineID: 2, token: aliceToken, protocol: 1 });
    expect((await aliceAgain.next('joined', () => true, 60_000)).resumed).toBe(true);
    aliceAgain.send('leave', {});
    await aliceAgain.next('closed', () => true, 60_000);
    aliceAgain.socket.close();

    await spin(game, 'x-2');
    const credits = idleView(game)!.creditsCents;
    game.send('cashout', {});
    const cashedOut = await game.next('cashedOut', () => true, 60_000);
    expect(cashedOut.amountCents).toBe(credits);
    expect((await walletBalance(db, demo)).balance).toBe(before - 5_000 + credits);
    const spins = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM game_cycles WHERE machine_id = 1')).rows[0]!.n;
    expect(spins).toBeGreaterThanOrEqual(2);
    expect(await auditLedger(db)).toMatchObject({ ok: true, total: 0 });
    expect((await auditPlayers(db)).ok).toBe(true);
    game.socket.close();
    viewer.socket.close();
  }, 300_000);
});
