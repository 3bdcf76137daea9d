/**
 * End-to-end tests in Debian's Chromium against the product started the way `npm start` starts it,
 * on its own port and a fresh data directory.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.js';
import { smoothMachinesEnv } from './video/ffmpeg-choice.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8091);
export const E2E_DATA_DIR = path.resolve(here, `../.tmp/e2e-data-${E2E_PORT}`);

export default defineConfig({
  testDir: here,
  testMatch: '**/*.spec.ts',
  outputDir: path.resolve(here, '../.tmp/test-results'),
  forbidOnly: true,
  fullyParallel: false,
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    trace: 'retain-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  // The smoke tests see the product as a new user does, before any other test has played on it
  // (play/malfunction.spec.ts leaves machine 10 in malfunction on purpose).
  projects: [
    { name: 'smoke', testMatch: 'smoke/**/*.spec.ts' },
    { name: 'product', testIgnore: 'smoke/**', dependencies: ['smoke'] },
  ],
  webServer: {
    command: `node -e "require('fs').rmSync(process.env.DATA_DIR,{recursive:true,force:true})" && npx tsx ../scripts/start.ts`,
    cwd: here,
    // A short grace period (12 s; a loaded CI box needs the headroom over the 4 s outage) lets the play tests see a dropped session closed by the server.
    // CABINET_FFMPEG: one machine per ffmpeg build (Debian's, the bundled one) for smoke/smooth-video.spec.ts.
    env: { PORT: String(E2E_PORT), DATA_DIR: E2E_DATA_DIR, LOG_LEVEL: 'warn', SESSION_GRACE_MS: '12000', CABINET_FFMPEG: smoothMachinesEnv() },
    url: `http://127.0.0.1:${E2E_PORT}/check`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
