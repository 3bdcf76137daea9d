/**
 * Starts one product per Playwright worker (instances.ts), each fresh, before any test; the smoke
 * project therefore sees them as a new user does. Their output goes to the console and, stamped, to
 * their log files (product-log.ts). At the end they are stopped, and the run fails on any fault in
 * their logs that no test checked.
 */
import fs from 'node:fs';
import type { FullConfig } from '@playwright/test';
import { PRODUCT_ENV, PRODUCT_LOG_DIR, PRODUCT_SETTINGS, frontOrigin, productDataDir, productLogFile, productPort } from './instances';
import { startProduct, type RunningProduct } from './product-process';
import { describeFaults, stamp, uncheckedFaults } from './product-log';
import { buildWeb, webBuildIsStale } from '../../scripts/web-build';

export default async function globalSetup(config: FullConfig) {
  // Once here, not by each product's start.ts at the same moment.
  if (webBuildIsStale()) buildWeb();
  fs.rmSync(PRODUCT_LOG_DIR, { recursive: true, force: true });
  fs.mkdirSync(PRODUCT_LOG_DIR, { recursive: true });
  const ports = Array.from({ length: config.workers }, (_, index) => productPort(index));
  console.log(`Starting ${ports.length} products for ${ports.length} workers (ports ${ports.join(', ')})…`);
  const started = await Promise.allSettled(
    ports.map((port) => {
      const log = fs.openSync(productLogFile(port), 'a');
      return startProduct({
        port,
        dataDir: productDataDir(port),
        // The web app served from another origin (web/api-url.spec.ts) may use this backend.
        env: { ...PRODUCT_ENV, WS_ALLOWED_ORIGINS: frontOrigin(port) },
        settings: PRODUCT_SETTINGS,
        onLine: (line) => {
          fs.writeSync(log, stamp(line));
          console.log(`[product ${port}] ${line}`);
        },
      });
    }),
  );
  const products = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const stopAll = () => Promise.all(products.map((product: RunningProduct) => product.stop()));
  const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }

  return async () => {
    // What a product says while it is being stopped is not a fault of the run.
    const stoppedAt = Date.now();
    await stopAll();
    const unchecked = ports
      .map((port) => ({ port, lines: uncheckedFaults(productLogFile(port), stoppedAt) }))
      .filter(({ lines }) => lines.length);
    if (unchecked.length)
      throw new Error(
        `the products logged faults no test checked (between tests, or in a spec not using e2e/product/fixtures):\n${unchecked
          .map(({ port, lines }) => `product ${port}:\n${describeFaults(lines)}`)
          .join('\n')}`,
      );
  };
}
