/**
 * The one whole product of the live-video stage's `product-video` project, shared by its specs
 * (every-machine-video.e2e.ts, smooth-video.e2e.ts): started the way `npm start` starts it
 * (scripts/start.ts, warm streams and all, only quieter) on a free port and a fresh data folder,
 * once per worker. The project runs one worker, so both specs play on the same product and the
 * stage starts one product instead of two (a product start is PostgreSQL, migrations, the demo
 * seed, ten cabinets and the media process). `CABINET_FFMPEG` gives each present ffmpeg build a
 * machine of its own (video/ffmpeg-choice.ts); every other machine runs the cabinets' own pick.
 *
 * Two warm streams instead of `npm start`'s four: the two smooth machines (1 and 2, one per ffmpeg
 * build) keep encoding from the start, as before; machines 3 and 4 join cold like the rest. The
 * browser shares the product's two cores here, which a player's never does: on a 2-core machine a
 * third slower than the one the limits were set on (AMD EPYC under KVM, 2026-11-28), four encoders at
 * 30 frames/s (~27 % of a core each, `npm run bench -- video`) and Chromium's decoding (~37 %) filled
 * both cores, and the smoothness test counted gaps of 217-233 ms as freezes (4 in 30 s) and 26.2
 * frames decoded a second. The picture a fresh `npm start` gives is measured, without a browser on
 * the same cores as a goal, by `npm run bench -- smooth`.
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

/** Machines that always encode in this product (WARM_STREAMS, apps/server/src/config.ts). */
export const VIDEO_WARM_STREAMS = 2;

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
        env: { LOG_LEVEL: 'warn', CABINET_FFMPEG: smoothMachinesEnv(), WARM_STREAMS: String(VIDEO_WARM_STREAMS) },
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
