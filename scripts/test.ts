/**
 * `npm test`: every test of the repository. Installs the system packages the browser and video
 * tests need when missing (Debian's chromium, ffmpeg and janus; needs root) and builds the scale
 * path's NACK-fixed Janus (apps/media/src/janus-build.ts; root too), then: type check,
 * lint and dead exports (the fast stage), the unit, component and API tests (Vitest), a build of
 * the web app, and the end-to-end tests in Chromium (Playwright). Exits non-zero when any stage fails.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWeb } from './web-build.js';
import { ensureSystemPackages, type SystemPackage } from './system-packages.js';
import { ensurePatchedJanus } from '../apps/media/src/janus-build.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** `required`: without it the browser tests cannot run at all; otherwise the tests that need it say they are skipped. */
const SYSTEM_PACKAGES: SystemPackage[] = [
  { binary: '/usr/bin/chromium', pkg: 'chromium', why: 'browser tests', required: true },
  { binary: '/usr/bin/ffmpeg', pkg: 'ffmpeg', why: 'video tests with the system encoder (the bundled one is tested anyway)', required: false },
  { binary: '/usr/bin/janus', pkg: 'janus', why: 'the Janus media server test', required: false },
  { binary: '/usr/sbin/nats-server', pkg: 'nats-server', why: 'the cluster tests (when no NATS runs on 127.0.0.1:4222)', required: false },
  { binary: '/usr/sbin/haproxy', pkg: 'haproxy', why: 'the cluster tests and the TLS front test', required: false },
  { binary: '/usr/bin/openssl', pkg: 'openssl', why: 'the TLS front test (its certificate)', required: false },
];

function run(title: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  console.log(`\n=== ${title} ===`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`=== ${title}: ${result.status === 0 ? 'passed' : 'FAILED'} in ${seconds} s ===`);
  return result.status === 0;
}

ensureSystemPackages(SYSTEM_PACKAGES, 'the browser tests');
// The scale path's Janus (Debian's 1.4.1 source with the NACK fix, docs/video.md): built once as
// root and reused; without it the Janus tests run Debian's binary and its NACK test is skipped.
await ensurePatchedJanus();
const results: boolean[] = [];
results.push(run('type check (tsc, strict)', 'npm', ['run', '--silent', 'typecheck']));
results.push(run('lint (eslint, 0 warnings)', 'npx', ['eslint', '--max-warnings', '0', '.']));
// Exports nothing imports (knip.json names the entry points: tests, benches, e2e specs).
results.push(run('dead exports (knip)', 'npx', ['knip', '--include', 'exports,types', '--no-progress']));
results.push(run('unit, component and API tests (vitest)', 'npx', ['vitest', 'run']));
buildWeb();
results.push(run('live video end-to-end tests in Chromium (playwright)', 'npx', ['playwright', 'test', '-c', 'e2e/video/playwright.config.ts']));
results.push(run('product end-to-end tests in Chromium (playwright)', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts']));
// The short fault suite: kill -9 of every part under play; the seed is printed to replay a failure.
results.push(run('fault suite, short (kill -9 under play, docs/operations.md)', 'npx', ['tsx', 'e2e/chaos/bank.ts', '--seconds', '50']));
const failed = results.filter((ok) => !ok).length;
console.log(`\n${results.length - failed} suites passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
