/**
 * What a new user watches after `npm start`, whichever ffmpeg the machine has: half a minute of play
 * on the whole product (sign in, join, load ₺50, Spin every 2.5 s) without a single freeze as Chrome
 * counts them (inbound-rtp `freezeCount`) and with at least 28 frames decoded a second, on loopback.
 *
 * One product streams with both builds at once: it gives each its own machine (`CABINET_FFMPEG`,
 * video/ffmpeg-choice.ts), and the test checks that the machine's encoder process really runs that
 * binary. A build absent here is skipped with its reason printed. It runs in the live-video stage
 * (one worker, its own product) so that no other browser test shares the two cores while Chrome
 * counts freezes: the product-wide e2e runs two products at once.
 */
import { existsSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { freePort } from '@reel/process';
import { ourEncoders } from '../play/encoders';
import { cashIn, cashOut, joinFromLobby, leaveToLobby, waitFirstFrame } from '../play/play-helpers';
import { REPO_ROOT } from '../product/instances';
import { startProduct, type RunningProduct } from '../product/product-process';
import { FFMPEG_CHOICES, SMOOTH_MACHINES, smoothMachinesEnv } from './ffmpeg-choice';
import {
  CAPTURE_PEER_CONNECTIONS,
  describeSmoothness,
  presentedFrameTimes,
  readInboundVideo,
  recordPresentedFrames,
  smoothness,
} from './inbound-video';
import { apiToken, signIn, useEnglish } from '../web/helpers';
import { faultOf } from '../product/product-log';

const PLAY_MS = 30_000;
const SPIN_EVERY_MS = 2500;
const MIN_DECODED_FPS = 28;

let product: RunningProduct | null = null;
/** The product's output: a restart or an error while a case plays fails it, with the lines shown. */
const output: string[] = [];

/** Every game channel state the screen showed (`data-connection`), in order. */
const RECORD_CHANNEL_STATES = `
  window.__channelStates = [];
  new MutationObserver(() => {
    const state = document.querySelector('.game')?.getAttribute('data-connection');
    if (state && window.__channelStates.at(-1) !== state) window.__channelStates.push(state);
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-connection'], childList: true });
`;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const port = await freePort();
  product = await startProduct({
    port,
    dataDir: path.join(REPO_ROOT, `.tmp/e2e-smooth-product-${port}`),
    env: { LOG_LEVEL: 'warn', CABINET_FFMPEG: smoothMachinesEnv() },
    onLine: (line) => output.push(line),
  });
});

test.afterAll(async () => {
  await product?.stop();
  if (product) rmSync(product.dataDir, { recursive: true, force: true });
});

async function productPage(browser: import('@playwright/test').Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: product!.url });
  const page = await context.newPage();
  await useEnglish(page);
  await page.addInitScript(CAPTURE_PEER_CONNECTIONS);
  await page.addInitScript(RECORD_CHANNEL_STATES);
  return page;
}

for (const choice of FFMPEG_CHOICES) {
  const machineId = SMOOTH_MACHINES[choice.name];
  test(`${choice.name} ffmpeg: ${PLAY_MS / 1000} s of play without a freeze, ≥ ${MIN_DECODED_FPS} frames decoded a second`, async ({ browser }) => {
    if (!choice.path || !existsSync(choice.path)) {
      const reason = `${choice.name} ffmpeg ABSENT (${choice.path ?? 'no binary from @ffmpeg-installer/linux-x64'}): skipped`;
      console.log(reason);
      test.skip(true, reason);
      return;
    }
    test.setTimeout(PLAY_MS + 60_000);
    const outputFrom = output.length;
    const page = await productPage(browser);
    const request = page.context().request;
    const token = await apiToken(request);
    await signIn(page);
    await joinFromLobby(page, request, token, machineId);
    await waitFirstFrame(page);
    const binary = realpathSync(choice.path);
    expect(
      ourEncoders(product!.dataDir).map((e) => e.exe),
      `an encoder of this product runs ${binary} (machine ${machineId})`,
    ).toContain(binary);
    await cashIn(page, /^Load ₺50,00$/, 5000);

    const before = await readInboundVideo(page);
    await recordPresentedFrames(page, '[data-testid="game-video"]');
    const spin = page.getByRole('button', { name: 'Spin', exact: true });
    const t0 = Date.now();
    let spins = 0;
    while (Date.now() - t0 < PLAY_MS) {
      const nextAt = Date.now() + SPIN_EVERY_MS;
      // A free-spins round plays by itself with Spin disabled: the picture is measured all the same.
      if (await spin.isEnabled()) {
        await spin.click();
        spins++;
      }
      await page.waitForTimeout(Math.max(0, Math.min(nextAt, t0 + PLAY_MS) - Date.now()));
    }
    const windowMs = Date.now() - t0;
    const s = smoothness(before, await readInboundVideo(page), await presentedFrameTimes(page), windowMs);
    console.log(`${choice.name} ffmpeg ${binary} on machine ${machineId}, ${spins} spins: ${describeSmoothness(s)}`);

    const states = await page.evaluate(() => (window as unknown as { __channelStates: string[] }).__channelStates);
    console.log(`game channel states: ${states.join(' → ')}`);
    expect(output.slice(outputFrom).filter((line) => faultOf(line)), 'restarts and error-level lines of the product').toEqual([]);
    // A cold join of the bundled build once left the screen on "Reconnecting to the machine..." (issue 24).
    expect(states.slice(states.indexOf('joined')), 'the game channel stayed joined while the reels spun').toEqual(['joined']);
    expect(spins, 'the reels were spun').toBeGreaterThan(3);
    expect(s.freezes, 'freezes Chrome counted (inbound-rtp freezeCount)').toBe(0);
    expect(s.decodedFps, 'frames decoded a second').toBeGreaterThanOrEqual(MIN_DECODED_FPS);

    await expect(spin).toBeEnabled({ timeout: 120_000 });
    await cashOut(page);
    await leaveToLobby(page);
    await page.context().close();
  });
}
