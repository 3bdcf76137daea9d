/**
 * Smooth live video on the whole product, per encoder: `npm run bench -- smooth`
 * (`tsx e2e/bench/smooth.ts`).
 *
 * For each ffmpeg (`BENCH_FFMPEG=/path,/path`; default Debian's /usr/bin/ffmpeg and the bundled
 * @ffmpeg-installer build, those present) the product is started as `npm start` starts it
 * (scripts/start.ts, a free port, a fresh data dir under .tmp/) with `FFMPEG` set to that binary.
 * In Chromium a player signs in as demo/demo1234, joins Golden Reels 1, loads ₺50 and presses Spin
 * every 2.5 s for `BENCH_SMOOTH_MS` (60 s); then nobody spins for `BENCH_SMOOTH_ATTRACT_MS` (40 s,
 * 0 skips it). Read from Chrome itself: freezes and frozen time (inbound-rtp `freezeCount`,
 * `totalFreezesDuration`), frames decoded per second, and gaps > 200 ms between presented frames
 * (requestVideoFrameCallback). Goals, per encoder and window: no freeze and ≥ 28 frames decoded a
 * second (loopback, nothing lost). Each row names the binary and the version its cabinet ran.
 * `BENCH_PRODUCT_DIR` runs the product from another checkout (an A/B against an older commit).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { Verdict, freePort, stopChild, waitForUrl } from '@reel/process';
import { SYSTEM_FFMPEG, bundledFfmpeg } from '../../apps/cabinet/src/media/ffmpeg-path.js';
import { probeFfmpeg } from '../../apps/cabinet/src/media/ffmpeg-probe.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.js';
import {
  CAPTURE_PEER_CONNECTIONS,
  describeSmoothness,
  presentedFrameTimes,
  readInboundVideo,
  recordPresentedFrames,
  smoothness,
  type Smoothness,
} from '../video/inbound-video.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const productDir = path.resolve(process.env.BENCH_PRODUCT_DIR ?? root);
const SPIN_MS = Number(process.env.BENCH_SMOOTH_MS ?? 60_000);
const ATTRACT_MS = Number(process.env.BENCH_SMOOTH_ATTRACT_MS ?? 40_000);
const SPIN_EVERY_MS = 2500;
const MACHINE_NAME = 'Golden Reels 1';
const GOALS = { freezes: { max: 0 }, fps: { min: 28, unit: 'frames/s' } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function encoders(): string[] {
  if (process.env.BENCH_FFMPEG) return process.env.BENCH_FFMPEG.split(',').map((p) => p.trim()).filter(Boolean);
  return [SYSTEM_FFMPEG, bundledFfmpeg()].filter((p): p is string => p !== null && existsSync(p));
}

async function startProduct(ffmpeg: string, log: string[]): Promise<{ base: string; product: ChildProcess; dataDir: string }> {
  const port = await freePort();
  const dataDir = path.join(root, `.tmp/bench-smooth-${port}`);
  rmSync(dataDir, { recursive: true, force: true });
  const product = spawn(process.execPath, ['--import', 'tsx', path.join(productDir, 'scripts/start.ts')], {
    cwd: productDir,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', FFMPEG: ffmpeg },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => log.push(...String(chunk).split('\n').filter(Boolean));
  product.stdout!.on('data', keep);
  product.stderr!.on('data', keep);
  const base = `http://127.0.0.1:${port}`;
  if (!(await waitForUrl(`${base}/check`, 180_000))) {
    await stopChild(product, 'SIGTERM', 20_000);
    throw new Error(`the product did not start; it said:\n${log.slice(-15).join('\n')}`);
  }
  return { base, product, dataDir };
}

/** Sign in, lobby → Golden Reels → Golden Reels 1, first frame, load ₺50. */
async function joinAndLoad(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByLabel('Email or username').fill('demo');
  await page.getByLabel('Password', { exact: true }).fill('demo1234');
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(/\/lobby$/);
  await page.getByRole('link', { name: 'Golden Reels', exact: true }).click();
  const card = page.locator('article', { hasText: MACHINE_NAME }).first();
  // The cabinets connect after the server answers: wait until the machine is playable.
  await card.locator('[data-status]').filter({ hasText: 'Available' }).waitFor({ timeout: 120_000 });
  await card.getByRole('link').click();
  await page.getByTestId('video-state').filter({ hasText: 'LIVE' }).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: /^Load ₺50,00$/ }).click();
  await page.getByTestId('machine-credits').filter({ hasText: '50' }).waitFor({ timeout: 15_000 });
}

async function measure(page: Page, windowMs: number, spinning: boolean): Promise<Smoothness> {
  const before = await readInboundVideo(page);
  await recordPresentedFrames(page, '[data-testid="game-video"]');
  const t0 = Date.now();
  const spin = page.getByRole('button', { name: 'Spin', exact: true });
  while (Date.now() - t0 < windowMs) {
    if (spinning && (await spin.isEnabled().catch(() => false))) await spin.click({ timeout: 1000 }).catch(() => undefined);
    await sleep(Math.min(spinning ? SPIN_EVERY_MS : 1000, Math.max(0, windowMs - (Date.now() - t0))));
  }
  const elapsed = Date.now() - t0;
  const presented = await presentedFrameTimes(page);
  return smoothness(before, await readInboundVideo(page), presented, elapsed);
}

interface Row {
  ffmpeg: string;
  version: string;
  cabinetSaid: string;
  windows: { name: string; s: Smoothness }[];
}

async function run(ffmpeg: string): Promise<Row> {
  const probe = await probeFfmpeg(ffmpeg);
  const log: string[] = [];
  const { base, product, dataDir } = await startProduct(ffmpeg, log);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(() => window.localStorage.setItem('i18nextLng', 'en'));
    await context.addInitScript(CAPTURE_PEER_CONNECTIONS);
    const page = await context.newPage();
    await joinAndLoad(page, base);
    await sleep(2000);
    const windows: Row['windows'] = [];
    windows.push({ name: `spinning every ${SPIN_EVERY_MS / 1000} s`, s: await measure(page, SPIN_MS, true) });
    if (ATTRACT_MS > 0) {
      // Let the last spin (and any free spins it won) end before the quiet window.
      await page.getByRole('button', { name: 'Spin', exact: true }).waitFor({ state: 'visible' });
      await sleep(4000);
      windows.push({ name: 'nobody spinning', s: await measure(page, ATTRACT_MS, false) });
    }
    const cabinetSaid = log.find((line) => line.includes('[cabinet] ffmpeg ')) ?? '(the cabinet printed no ffmpeg line)';
    return { ffmpeg, version: probe.version ?? 'unknown', cabinetSaid: cabinetSaid.replace(/^.*\[cabinet\] /, ''), windows };
  } finally {
    await browser.close().catch(() => undefined);
    await stopChild(product, 'SIGTERM', 20_000);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const verdict = new Verdict('smooth bench');
const list = encoders();
const load = os.loadavg().map((x) => x.toFixed(1)).join(' ');
console.log(
  `smooth bench: the whole product (${productDir}) per ffmpeg, Chromium ${CHROMIUM_PATH} on loopback, demo on ${MACHINE_NAME}, ₺50 loaded, ` +
    `Spin every ${SPIN_EVERY_MS / 1000} s for ${SPIN_MS / 1000} s${ATTRACT_MS ? `, then ${ATTRACT_MS / 1000} s nobody spinning` : ''}; load average ${load}`,
);
if (list.length === 0) verdict.missing('encoders', 'no ffmpeg found (neither /usr/bin/ffmpeg nor the bundled build)');
for (const ffmpeg of list) {
  try {
    const row = await run(ffmpeg);
    console.log(`\nffmpeg ${row.ffmpeg} (version ${row.version}); cabinet: ${row.cabinetSaid}`);
    if (!row.cabinetSaid.includes(ffmpeg)) verdict.missing(`${ffmpeg}`, `the cabinet ran another binary: ${row.cabinetSaid}`);
    for (const { name, s } of row.windows) {
      console.log(`  ${name}: ${describeSmoothness(s)}`);
      console.log(`    freezes ${verdict.check(`${ffmpeg} ${name}: freezes`, s.freezes, GOALS.freezes)}`);
      console.log(`    decoded ${verdict.check(`${ffmpeg} ${name}: frames decoded per second`, s.decodedFps, GOALS.fps)}`);
    }
  } catch (error) {
    verdict.missing(ffmpeg, `run failed: ${String(error)}`);
  }
}
console.log(`load average at the end ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
verdict.finish();
