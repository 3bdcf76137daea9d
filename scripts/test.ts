/**
 * `npm test`: every test of the repository. Installs the system packages the browser and video
 * tests need when missing (Debian's chromium, ffmpeg and janus; needs root), then: type check and
 * lint (the fast stage), the unit, component and API tests (Vitest), a build of the web app, and the
 * end-to-end tests in Chromium (Playwright). Exits non-zero when any stage fails.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWeb } from './web-build.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const isRoot = process.getuid?.() === 0;

/** `required`: without it the browser tests cannot run at all; otherwise the tests that need it say they are skipped. */
const SYSTEM_PACKAGES = [
  { binary: '/usr/bin/chromium', pkg: 'chromium', why: 'browser tests', required: true },
  { binary: '/usr/bin/ffmpeg', pkg: 'ffmpeg', why: 'video tests with the system encoder (the bundled one is tested anyway)', required: false },
  { binary: '/usr/bin/janus', pkg: 'janus', why: 'the Janus media server test', required: false },
];

function ensureSystemPackages() {
  const missing = SYSTEM_PACKAGES.filter((p) => !fs.existsSync(p.binary));
  if (!missing.length) return;
  const names = missing.map((p) => p.pkg);
  if (!isRoot) {
    const hint = `install with: sudo apt-get install -y ${names.join(' ')}`;
    for (const p of missing) console.error(`Missing ${p.pkg} (${p.why})${p.required ? '' : ': those tests will be skipped'}.`);
    if (missing.some((p) => p.required)) {
      console.error(`Cannot run the browser tests; ${hint}`);
      process.exit(1);
    }
    console.error(`To run them too, ${hint}`);
    return;
  }
  console.log(`Installing ${names.join(', ')} from Debian packages…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const install = spawnSync('apt-get', ['install', '-y', '-qq', ...names], { stdio: 'inherit', env });
  if (update.status !== 0 || install.status !== 0) {
    console.error(`Could not install ${names.join(', ')}; the tests that need them cannot run.`);
    process.exit(1);
  }
}

function run(title: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  console.log(`\n=== ${title} ===`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`=== ${title}: ${result.status === 0 ? 'passed' : 'FAILED'} in ${seconds} s ===`);
  return result.status === 0;
}

ensureSystemPackages();
const results: boolean[] = [];
results.push(run('type check (tsc, strict)', 'npm', ['run', '--silent', 'typecheck']));
results.push(run('lint (eslint, 0 warnings)', 'npx', ['eslint', '--max-warnings', '0', '.']));
results.push(run('unit, component and API tests (vitest)', 'npx', ['vitest', 'run']));
buildWeb();
results.push(run('live video end-to-end tests in Chromium (playwright)', 'npx', ['playwright', 'test', '-c', 'e2e/video/playwright.config.ts']));
results.push(run('product end-to-end tests in Chromium (playwright)', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts']));
// The short fault suite: kill -9 of every part under play; the seed is printed to replay a failure.
results.push(run('fault suite, short (kill -9 under play, docs/operations.md)', 'npx', ['tsx', 'e2e/chaos/bank.ts', '--seconds', '50']));
const failed = results.filter((ok) => !ok).length;
console.log(`\n${results.length - failed} suites passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
