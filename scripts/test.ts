/**
 * `npm test`: every test of the repository. Installs the system packages the browser and video
 * tests need when missing (Debian's chromium, ffmpeg, janus, nats-server, haproxy; needs root), builds
 * the scale path's NACK-fixed Janus (apps/media/src/janus/janus-build.ts; root too), starts
 * a nats-server of its own for the cluster tests when no NATS_URL is given, then: type check, lint
 * and dead exports (the fast stage), the unit, component and API tests (Vitest), a build of the web
 * app, and the end-to-end tests in Chromium (Playwright). Ends with a table of every stage's
 * duration; exits non-zero when any stage fails.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, stopChild } from '@reel/process';
import { startNatsServer } from '../apps/server/src/cluster/nats-server.js';
import { buildWeb } from './web-build.js';
import { ensureSystemPackages, type SystemPackage } from './system-packages.js';
import { childrenCpuSeconds, formatStageTable, type StageResult } from './stage-table.js';
import { ensurePatchedJanus } from '../apps/media/src/janus/janus-build.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NATS_SERVER = '/usr/sbin/nats-server';
const HAPROXY = '/usr/sbin/haproxy';
/** `required`: without it the browser tests cannot run at all; otherwise the tests that need it say they are skipped. */
const SYSTEM_PACKAGES: SystemPackage[] = [
  { binary: '/usr/bin/chromium', pkg: 'chromium', why: 'browser tests', required: true },
  { binary: '/usr/bin/ffmpeg', pkg: 'ffmpeg', why: 'video tests with the system encoder (the bundled one is tested anyway)', required: false },
  { binary: '/usr/bin/janus', pkg: 'janus', why: 'the Janus media server test', required: false },
  { binary: NATS_SERVER, pkg: 'nats-server', why: 'the cluster tests (npm test starts one of its own when no NATS_URL is given)', required: false },
  { binary: HAPROXY, pkg: 'haproxy', why: 'the cluster tests and the TLS front test', required: false },
  { binary: '/usr/bin/openssl', pkg: 'openssl', why: 'the TLS front test (its certificate)', required: false },
];

const stages: StageResult[] = [];

function timed(title: string, body: () => boolean): boolean {
  console.log(`\n=== ${title} ===`);
  const started = Date.now();
  const cpuBefore = childrenCpuSeconds();
  const ok = body();
  const seconds = Math.round((Date.now() - started) / 1000);
  const cpuAfter = childrenCpuSeconds();
  console.log(`=== ${title}: ${ok ? 'passed' : 'FAILED'} in ${seconds} s ===`);
  stages.push({ title, ok, seconds, ...(cpuBefore !== undefined && cpuAfter !== undefined ? { cpuSeconds: cpuAfter - cpuBefore } : {}) });
  return ok;
}

const run = (title: string, command: string, args: string[]) =>
  timed(title, () => spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env }).status === 0);

const startedAt = Date.now();
ensureSystemPackages(SYSTEM_PACKAGES, 'the browser tests');
// The scale path's Janus (Debian's 1.4.1 source with the NACK fix, docs/video.md): built once as
// root and reused; without it the Janus tests run Debian's binary and its NACK test is skipped.
await ensurePatchedJanus();

// The cluster tests (kill -9 failover over NATS) run on a nats-server of this run's own, on a free
// port, tied to this process; with it and HAProxy here, a cluster test that cannot run fails instead
// of skipping (REEL_CLUSTER_TESTS=required, apps/server/src/cluster/nats-available.ts).
let nats: Awaited<ReturnType<typeof startNatsServer>> | null = null;
if (!process.env.NATS_URL && fs.existsSync(NATS_SERVER)) {
  nats = await startNatsServer(await freePort());
  process.env.NATS_URL = nats.url;
  console.log(`nats-server for the cluster tests on ${nats.url}`);
}
if (process.env.NATS_URL && fs.existsSync(HAPROXY)) process.env.REEL_CLUSTER_TESTS = 'required';

run('type check (tsc, strict)', 'npm', ['run', '--silent', 'typecheck']);
run('lint (eslint, 0 warnings)', 'npx', ['eslint', '--max-warnings', '0', '.']);
// Exports nothing imports (knip.json names the entry points: tests, benches, e2e specs).
run('dead exports (knip)', 'npx', ['knip', '--include', 'exports,types', '--no-progress']);
run('unit, component and API tests (vitest)', 'npx', ['vitest', 'run']);
timed('web build (vite)', () => {
  try {
    buildWeb();
    return true;
  } catch {
    return false;
  }
});
run('live video end-to-end tests in Chromium (playwright)', 'npx', ['playwright', 'test', '-c', 'e2e/video/playwright.config.ts']);
run('product end-to-end tests in Chromium (playwright)', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts']);
// The short fault suite: kill -9 of every part under play; the seed is printed to replay a failure.
run('fault suite, short (kill -9 under play, docs/operations.md)', 'npx', ['tsx', 'e2e/chaos/bank.ts', '--seconds', '50']);

if (nats) await stopChild(nats.child);
const failed = stages.filter((stage) => !stage.ok).length;
console.log(`\n${formatStageTable(stages, Math.round((Date.now() - startedAt) / 1000))}`);
console.log(`\n${stages.length - failed} stages passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
