/**
 * The fault suite (`npm run chaos`; a short run is part of `npm test`): a Jepsen-style bank test.
 * Players play for real over the game channel (cash in, spins, autoplay, cash out, leave,
 * promotions) while the product, started as `npm start` starts it, has its parts killed with -9
 * at random moments: the server, the cabinets, the media process, PostgreSQL, and the whole
 * process group (then started again). Afterwards every player leaves and checks.ts decides.
 *
 *   tsx e2e/chaos/bank.ts [--seconds 300] [--seed 42] [--damage-memory]
 * Exits 1 on any violation, or when a kind of kill never happened. A malfunction settlement is a
 * violation: kills never damage a cabinet's memory, so its meters always follow from the records.
 * With --damage-memory the run also overwrites one cabinet's memory with garbage once (after every
 * kind of kill happened): malfunctions of that machine from then on are expected and settled, and
 * the money checks must still hold.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { checkInvariants, walletTotals, type DamagedMemory } from './checks.js';
import { ChaosPlayer } from './player.js';
import { KILL_TARGETS, Product, type KillTarget } from './product.js';
import { freePort } from '@reel/process';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '300' },
    seed: { type: 'string', default: String(Date.now() % 100_000) },
    'damage-memory': { type: 'boolean', default: false },
  },
});
const seconds = Number(values.seconds);
const seed = Number(values.seed);

function mulberry32(a: number) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rng = mulberry32(seed);


const PLAYERS = [
  { username: 'demo', password: 'demo1234', machineId: 1 },
  { username: 'alice', password: 'alice1234', machineId: 5 },
  { username: 'bobby', password: 'bobby1234', machineId: 9 },
];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reel-chaos-'));
fs.chmodSync(dataDir, 0o755);
const product = new Product(await freePort(), path.join(dataDir, 'data'), { SESSION_GRACE_MS: '600000' });
console.log(`chaos: seed ${seed}, ${seconds} s of faults, product on ${product.baseUrl}, log ${product.logFile}`);
product.start();
await product.waitUp();
// The cabinets connect a moment after the server answers.
await sleep(3_000);

const db = new pg.Client({ connectionString: product.databaseUrl });
await db.connect();
const startWallets = await walletTotals(db);
await db.end();

const players = PLAYERS.map((p, i) => new ChaosPlayer(product.baseUrl, p.username, p.password, p.machineId, mulberry32(seed + i + 1)));
const running = players.map((p) => p.run());

const kills = new Map<KillTarget, number>(KILL_TARGETS.map((t) => [t, 0]));
const recoveriesMs: number[] = [];
let damaged: DamagedMemory | null = null;
const deadline = Date.now() + seconds * 1000;
let round = 0;
// Every kind of kill happens at least once, even when slow recoveries (a loaded machine) use up the time.
while (Date.now() < deadline || round < KILL_TARGETS.length) {
  await sleep(2_000 + rng() * 8_000);
  // Every kind of kill at least once, then at random.
  const target = round < KILL_TARGETS.length ? KILL_TARGETS[round]! : KILL_TARGETS[Math.floor(rng() * KILL_TARGETS.length)]!;
  round++;
  if (values['damage-memory'] && !damaged && round > KILL_TARGETS.length) {
    const machineId = PLAYERS[PLAYERS.length - 1]!.machineId;
    damaged = { machineId, at: new Date() };
    await product.damageMemory(machineId);
    console.log(`chaos: damaged the memory of machine ${machineId} at ${((Date.now() - deadline + seconds * 1000) / 1000).toFixed(1)} s`);
    await product.waitUp();
    continue;
  }
  if (!product.kill(target)) continue;
  kills.set(target, kills.get(target)! + 1);
  const killedAt = Date.now();
  console.log(`chaos: kill -9 ${target} at ${((killedAt - deadline + seconds * 1000) / 1000).toFixed(1)} s`);
  if (target === 'everything') product.start();
  await sleep(500);
  await product.waitUp();
  recoveriesMs.push(Date.now() - killedAt);
}

console.log('chaos: faults over; every player leaves');
for (const p of players) p.stop();
await Promise.race([Promise.all(running), sleep(30_000)]);
await product.waitUp();
const left = await Promise.all(players.map((p) => p.leaveForGood(120_000)));
players.forEach((p, i) => !left[i] && console.log(`chaos: ${p.username} could not leave machine ${p.machineId}: ${p.lastRefusal}`));
// The last cash outs settle asynchronously: wait for every session to close.
const check = new pg.Client({ connectionString: product.databaseUrl });
await check.connect();
for (let i = 0; i < 120; i++) {
  const { rows } = await check.query("SELECT count(*)::int AS n FROM slot_sessions WHERE status <> 'closed'");
  if (rows[0].n === 0) break;
  await sleep(1_000);
}
await check.end();

const report = await checkInvariants(product.databaseUrl, players, startWallets, damaged);
let audit = 0;
try {
  execFileSync(path.join(root, 'node_modules/.bin/tsx'), ['apps/server/src/cli/operator.ts', 'audit'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: product.dataDir, DATABASE_URL: '' },
    stdio: 'pipe',
  });
} catch (error) {
  audit = (error as { status: number }).status;
  report.violations.push(`operator audit exited ${audit}: ${String((error as { stdout: Buffer }).stdout)}`);
}
await product.stop();

const sum = (f: (p: ChaosPlayer) => number) => players.reduce((n, p) => n + f(p), 0);
const missingKinds = [...kills].filter(([, n]) => n === 0).map(([t]) => t);
console.log('\nchaos figures');
console.log(`  operations          ${sum((p) => p.operations)} (refused ${sum((p) => p.refusals)}, reconnects ${sum((p) => p.reconnects)})`);
console.log(`  acknowledged        cash ins ${sum((p) => p.acked.cashIns.length)}, spins ${sum((p) => p.acked.spins.length)}, cash outs ${sum((p) => p.acked.cashOuts)}, promotions ${sum((p) => p.acked.promotions)}`);
console.log(`  kills (kill -9)     ${[...kills].map(([t, n]) => `${t} ${n}`).join(', ')}`);
console.log(`  back up after kill  ${recoveriesMs.length ? `max ${(Math.max(...recoveriesMs) / 1000).toFixed(1)} s, n=${recoveriesMs.length}` : 'n/a'}`);
console.log(`  players left        ${left.filter(Boolean).length}/${players.length}`);
console.log(`  cents checked       ${report.centsChecked}`);
console.log(`  malfunctions        ${report.malfunctions}${damaged ? ` (memory of machine ${damaged.machineId} damaged on purpose)` : ''}`);
console.log(`  violations          ${report.violations.length}`);
for (const v of report.violations) console.log(`    - ${v}`);
if (missingKinds.length) console.log(`  FAILED: these parts were never killed: ${missingKinds.join(', ')}`);
const ok = report.violations.length === 0 && missingKinds.length === 0 && left.every(Boolean);
console.log(ok ? 'chaos: OK' : 'chaos: FAILED');
if (ok) fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(ok ? 0 : 1);
