/**
 * The one whole product of the live-video stage's `product-video` project, shared by its specs
 * (every-machine-video.e2e.ts, smooth-video.e2e.ts): started the way `npm start` starts it
 * (scripts/start.ts, warm streams and all, only quieter) on a free port and a fresh data folder,
 * once per worker. The project runs one worker, so both specs play on the same product and the
 * stage starts one product instead of two (a product start is PostgreSQL, migrations, the demo
 * seed, ten cabinets and the media process). `CABINET_FFMPEG` gives each present ffmpeg build a
 * machine of its own (video/ffmpeg-choice.ts); every other machine runs the cabinets' own pick.
 *
 * `productFaults()` returns the restarts and error-level lines the product printed since the
 * test began, so a test fails on its own faults only.
 */
import path from 'node:path';
import { rmSync } from 'node:fs';
import { test as base } from '@playwright/test';
import { freePort } from '@reel/process';
import { REPO_ROOT } from '../product/instances';
import { startProduct, type RunningProduct } from '../product/product-process';
import { faultOf } from '../product/product-log';
import { smoothMachinesEnv } from './ffmpeg-choice';

interface VideoProduct {
  product: RunningProduct;
  /** Every line the product printed, in order. */
  output: string[];
}

export const test = base.extend<{ productFaults: () => string[] }, { videoProduct: VideoProduct }>({
  videoProduct: [
    // Playwright reads a fixture's dependencies from this pattern: none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const output: string[] = [];
      const port = await freePort();
      const product = await startProduct({
        port,
        dataDir: path.join(REPO_ROOT, `.tmp/e2e-video-product-${port}`),
        env: { LOG_LEVEL: 'warn', CABINET_FFMPEG: smoothMachinesEnv() },
        onLine: (line) => output.push(line),
      });
      try {
        await use({ product, output });
      } finally {
        await product.stop();
        rmSync(product.dataDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker', timeout: 240_000 },
  ],
  productFaults: async ({ videoProduct }, use) => {
    const from = videoProduct.output.length;
    await use(() => videoProduct.output.slice(from).filter((line) => faultOf(line)));
  },
});

export { expect } from '@playwright/test';
