/**
 * Live video end-to-end tests (`npx playwright test -c e2e/video/playwright.config.ts`). They start
 * their own harness (agent hub + media process + a cabinet process) on free ports, so they need no
 * running product. Files are named *.e2e.ts so the product-wide config (*.spec.ts) does not run
 * them with its web server.
 *
 * Projects: the video tests run once per ffmpeg the product may pick (`ffmpeg-system`: Debian's
 * /usr/bin/ffmpeg, `ffmpeg-bundled`: the 2018 static build of @ffmpeg-installer/linux-x64), the
 * cabinet process started with `FFMPEG` set to it (ffmpeg-choice.ts). `video-unavailable` starts
 * the whole product with a failing ffmpeg and checks what the player sees (once, not per binary);
 * `cluster` plays through `npm run cluster`'s topology and kills the session owner (cluster.e2e.ts).
 * `product-video` is the real product path (web app → server → cabinet → media) on one whole
 * product as `npm start` runs it, shared by its specs (video-product.ts): every machine's video on
 * its game screen (every-machine-video.e2e.ts), and half a minute of play without a freeze once per
 * ffmpeg (smooth-video.e2e.ts).
 * `--project ffmpeg-bundled` runs one of them. `npm test` runs product-video alone and the others two
 * at a time before it (video-stages.ts); run by hand, every project runs one test at a time.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.js';
import { FFMPEG_CHOICES } from './ffmpeg-choice.js';
import { assertEveryProjectStaged } from './video-stages.js';

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
  projects: stagedProjects([
    ...FFMPEG_CHOICES.map((choice) => ({
      name: `ffmpeg-${choice.name}`,
      testIgnore: ['**/video-unavailable.e2e.ts', '**/cluster.e2e.ts', '**/every-machine-video.e2e.ts', '**/smooth-video.e2e.ts'],
      metadata: { ffmpeg: choice },
    })),
    { name: 'video-unavailable', testMatch: '**/video-unavailable.e2e.ts', timeout: 240_000 },
    // Once, with the cabinets' own ffmpeg choice, as `npm start` runs them.
    { name: 'product-video', testMatch: ['**/every-machine-video.e2e.ts', '**/smooth-video.e2e.ts'], timeout: 240_000 },
    // Once, with the cabinets' own ffmpeg choice: it is about the servers, not the encoder.
    { name: 'cluster', testMatch: '**/cluster.e2e.ts', timeout: 300_000 },
  ]),
});

function stagedProjects<P extends { name: string }>(projects: P[]): P[] {
  assertEveryProjectStaged(projects.map((project) => project.name));
  return projects;
}
