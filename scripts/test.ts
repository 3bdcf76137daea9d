/**
 * `npm test`: every test of the repository. Installs the system packages the browser and video
 * tests need when missing (Debian's chromium, ffmpeg, janus, nats-server, haproxy; needs root), builds
 * the scale path's NACK-fixed Janus (apps/media/src/janus/janus-build.ts; root too), starts
 * a nats-server of its own for the cluster tests when no NATS_URL is given, then: a build of the web
 * app; type check, lint and dead exports at once; the unit, component and API tests (Vitest), with
 * the short fault suite in the background across the checks and Vitest; the product's end-to-end
 * tests in Chromium (Playwright); the live-video end-to-end tests in two stages, the product's video
 * and smoothness alone, last. Ends with a table of every stage's duration and CPU time;
 * exits non-zero when any stage fails (docs/operations.md, "Test stages").
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, stopChild } from '@reel/process';
import { startNatsServer } from '../apps/server/src/cluster/nats-server.js';
import { WEB_BUILT_ENV, buildWeb } from './web-build.js';
import { ensureSystemPackages, type SystemPackage } from './system-packages.js';
import { formatStageTable } from './stage-table.js';
import { StageRunner } from './stage-runner.js';
import { ensurePatchedJanus } from '../apps/media/src/janus/janus-build.js';
import { ALONE_PROJECTS, PAIRED_PROJECTS, PAIRED_WORKERS, projectArgs } from '../e2e/video/video-stages.js';

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

const stages = new StageRunner(root);

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

// The web app is built first: the fault suite's product serves it.
stages.timed('web build (vite)', () => {
  try {
    buildWeb();
    process.env[WEB_BUILT_ENV] = '1';
    return true;
  } catch {
    return false;
  }
});
// The short fault suite (kill -9 of every part under play; the seed is printed to replay a failure)
// runs in the background from here until Vitest ends: it waits on restarts for much of its time
// (~70 s of CPU in ~155 s), judges no timing (its minimums of acknowledged operations are a quarter
// of what it reaches alone) and only writes in its own temporary folder. Alone after the checks it
// held the stage 75 s past the type check (CI, 2026-11-29); never beside the product e2e, whose
// browser tests fill both cores.
const faultSuite = stages.startBeside({ title: 'fault suite, short (kill -9 under play, docs/operations.md)', command: 'npx', args: ['tsx', 'e2e/chaos/bank.ts', '--seconds', '50'] });
// The fast checks, at once (each is one process; together they fill two cores), so a type or lint
// error shows within a few minutes. Vitest comes after them, never beside: lint-walls.test.ts
// plants files in the tree that eslint and knip would read.
await stages.runTogether([
  { title: 'type check (tsc, strict)', command: 'npm', args: ['run', '--silent', 'typecheck'] },
  { title: 'lint (eslint, 0 warnings)', command: 'npx', args: ['eslint', '--max-warnings', '0', '.'] },
  // Exports nothing imports (knip.json names the entry points: tests, benches, e2e specs).
  { title: 'dead exports (knip)', command: 'npx', args: ['knip', '--include', 'exports,types', '--no-progress'] },
]);
// Vitest and the product browser tests one after another by default: run at once on two cores
// (load 18-23 on a quiet CI machine) they saved ~4 minutes but a timing test missed its figure
// (encoder-stall: 16 frames/s after the stop, 28 alone) in one of two clean-clone runs, and a red
// CI costs more than 4 minutes. REEL_TEST_TOGETHER=1 runs them at once (docs/operations.md).
// Vitest runs through runTogether (asynchronously, its output live) so the fault suite's output
// keeps draining meanwhile.
const vitestStage = { title: 'unit, component and API tests (vitest)', command: 'npx', args: ['vitest', 'run'], live: true };
const productE2eStage = { title: 'product end-to-end tests in Chromium (playwright)', command: 'npx', args: ['playwright', 'test', '-c', 'e2e/playwright.config.ts'] };
const together = process.env.REEL_TEST_TOGETHER === '1';
console.log(`\nVitest and the product e2e run ${together ? 'at once (REEL_TEST_TOGETHER=1)' : 'one after another'}`);
if (together) {
  await stages.join(faultSuite);
  await stages.runTogether([{ ...vitestStage, live: false }, { ...productE2eStage, live: true }]);
} else {
  await stages.runTogether([vitestStage]);
  await stages.join(faultSuite);
  stages.run(productE2eStage);
}
// The live-video projects in two stages (e2e/video/video-stages.ts): the harness, Janus, video
// unavailable and cluster tests two at a time, then the product's video alone, since the smoothness
// test counts freezes, which needs the two cores to itself.
const videoConfig = ['playwright', 'test', '-c', 'e2e/video/playwright.config.ts'];
stages.run({ title: 'live video end-to-end tests: harness, Janus, unavailable, cluster', command: 'npx', args: [...videoConfig, ...projectArgs(PAIRED_PROJECTS), '--workers', String(PAIRED_WORKERS)] });
stages.run({ title: "live video end-to-end tests: the product's video and smoothness, alone", command: 'npx', args: [...videoConfig, ...projectArgs(ALONE_PROJECTS)] });

if (nats) await stopChild(nats.child);
const failed = stages.results.filter((stage) => !stage.ok).length;
console.log(`\n${formatStageTable(stages.results, Math.round((Date.now() - startedAt) / 1000))}`);
console.log(`\n${stages.results.length - failed} stages passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
