/**
 * End-to-end tests in Debian's Chromium against the product started the way `npm start` starts it.
 * Each worker has a product of its own, on its own port and fresh data directory
 * (product/instances.ts, started by product/global-setup.ts): `E2E_WORKERS` workers (default 2)
 * on ports `E2E_PORT` (default 8091) and up. Tests take `test` from product/fixtures.ts, which fails
 * a test when its product had to heal a crash or logged an error it did not declare.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.js';
import { PRODUCT_WORKERS, workerProduct } from './product/instances.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  testDir: here,
  testMatch: '**/*.spec.ts',
  outputDir: path.resolve(here, '../.tmp/test-results'),
  forbidOnly: true,
  // Tests, not files, are handed to the workers: a long file (web/pages.spec.ts, 17 accessibility
  // scans) no longer keeps one worker busy at the end while the other idles. Each test has its own
  // player and machine and each worker its own product, so no test depends on another's order.
  fullyParallel: true,
  workers: PRODUCT_WORKERS,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  globalSetup: './product/global-setup.ts',
  use: {
    // Read in each worker process, where TEST_PARALLEL_INDEX names the worker and so its product.
    baseURL: workerProduct().url,
    // A failed test keeps its trace with DOM snapshots, but no screencast: recording one frames every
    // page change as a JPEG, and a game screen's video changes every frame (Chromium 156 on a game
    // screen: 70 % of a core with the screencast, 26 % without).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true },
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  // The smoke tests see the products as a new user does, before any other test has played on them
  // (play/malfunction.spec.ts leaves machine 10 in malfunction on purpose).
  projects: [
    { name: 'smoke', testMatch: 'smoke/**/*.spec.ts' },
    { name: 'product', testIgnore: 'smoke/**', dependencies: ['smoke'] },
  ],
});
