/**
 * Live video end-to-end tests (`npx playwright test -c e2e/video/playwright.config.ts`). They start
 * their own harness (agent hub + media process + a cabinet process) on free ports, so they need no
 * running product. Files are named *.e2e.ts so the product-wide config (*.spec.ts) does not run
 * them with its web server.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  testDir: here,
  testMatch: '**/*.e2e.ts',
  outputDir: path.resolve(here, '../../.tmp/video-test-results'),
  forbidOnly: true,
  fullyParallel: false,
  workers: 1,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
});
