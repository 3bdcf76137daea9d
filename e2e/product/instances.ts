/**
 * Where the products of the browser tests live. Each Playwright worker plays on a product of its
 * own (its own port and data folder, started by global-setup.ts), so workers never share a machine,
 * a player or a log. `E2E_PORT` is the first port (default 8091), `E2E_WORKERS` how many workers and
 * products (default 2): worker n (Playwright's TEST_PARALLEL_INDEX) uses port E2E_PORT + n.
 * Specs that start a product of their own (ip-check) take E2E_PORT + SPARE_OFFSET + n.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BASE_PORT = Number(process.env.E2E_PORT ?? 8091);
export const PRODUCT_WORKERS = Number(process.env.E2E_WORKERS ?? 2);
const SPARE_OFFSET = 20;
/** web/api-url.spec.ts serves the web app on its own origin at E2E_PORT + FRONT_OFFSET + n. */
const FRONT_OFFSET = 40;
/** Logs of the products (one file per product, each line stamped with the time it was read). */
export const PRODUCT_LOG_DIR = path.join(REPO_ROOT, '.tmp/e2e-logs');

/**
 * How the browser tests' products differ from `npm start`'s defaults: a short grace period (12 s; a
 * loaded CI box needs the headroom over the 4 s outage) lets the play tests see a dropped session
 * closed by the server, and no warm streams (a machine's encoder starts when a player joins it, as
 * for every machine past the fourth) keep several products on a 2-core machine from encoding video
 * nobody watches. The live-video stage's product runs with the default warm streams.
 */
export const PRODUCT_ENV: NodeJS.ProcessEnv = { LOG_LEVEL: 'warn', SESSION_GRACE_MS: '12000', WARM_STREAMS: '0' };

export const productPort = (index: number) => BASE_PORT + index;
/** The port of the web app served apart from the product of the worker with this index. */
const frontPort = (index: number) => BASE_PORT + FRONT_OFFSET + index;
/** The product with this port lets the web app served on its worker's front port use it (API_URL). */
export const frontOrigin = (port: number) => `http://127.0.0.1:${frontPort(port - BASE_PORT)}`;
export const productDataDir = (port: number) => path.join(REPO_ROOT, `.tmp/e2e-data-${port}`);
export const productLogFile = (port: number) => path.join(PRODUCT_LOG_DIR, `product-${port}.log`);

/** This worker's index (0 outside a worker: the runner, which only needs the shape of the config). */
const workerIndex = () => Number(process.env.TEST_PARALLEL_INDEX ?? 0);

/** The product of the worker this code runs in. */
export function workerProduct() {
  const port = productPort(workerIndex());
  return { port, url: `http://127.0.0.1:${port}`, dataDir: productDataDir(port), logFile: productLogFile(port) };
}

/** The port of this worker's web app served on an origin of its own. */
export const workerFrontPort = () => frontPort(workerIndex());

/** A port for a spec's own extra product, apart from every worker's product. */
export const spareProductPort = () => BASE_PORT + SPARE_OFFSET + workerIndex();
