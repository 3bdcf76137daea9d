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
 * nobody watches. Quick reels (a spin lands in 0.64 s instead of 1.62 s) keep the tests from
 * waiting on animations: the suite plays dozens of spins, and free-spin rounds and autoplay pause
 * 0.25 s between games (the server's autoplay stop reaches the cabinet before it may start the next
 * game, docs/sessions.md, so a short pause cannot play one game too many). A queue's ready check
 * lasts 45 s instead of 15: the queue test checks, while it runs, that the first player is turned
 * away (a join and its redirect), and on a loaded 2-core box that outlasted 15 s before the test
 * pressed Play now (CI, 2026-11-28); the check's expiry is the server tests' (machine-queue.test.ts).
 * The live-video stage's product runs with `npm start`'s timing and two warm streams
 * (video/video-product.ts says why).
 */
export const PRODUCT_ENV: NodeJS.ProcessEnv = {
  LOG_LEVEL: 'warn',
  SESSION_GRACE_MS: '12000',
  WARM_STREAMS: '0',
  CABINET_SPIN_MS: '400',
  CABINET_REEL_STAGGER_MS: '60',
  CABINET_CASH_OUT_MS: '200',
  CABINET_AUTOPLAY_GAP_MS: '250',
  QUEUE_READY_CHECK_MS: '45000',
};

/**
 * The browser tests' Settings.json: video at 10 frames a second instead of 30. These tests check
 * what the player sees and does, not the picture's rate (the live-video stage does, at 30); a game
 * screen's video then costs a third of the encoding and compositing (measured on one product and
 * Chromium 156: a game screen 63 % of a core at 30 fps, 32 % at 10), which on two cores is what
 * the two workers wait for.
 */
export const PRODUCT_SETTINGS = { FPS: 10 };

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
