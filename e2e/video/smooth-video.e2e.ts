/**
 * What a new user watches after `npm start`, whichever ffmpeg the machine has: half a minute of play
 * on the whole product (sign in, join, load ₺50, Spin every 2.5 s) with few freezes as Chrome
 * counts them (inbound-rtp `freezeCount`) and with at least 27 frames decoded a second (limits per encoder below), on loopback.
 *
 * One product streams with both builds at once: it gives each its own machine (`CABINET_FFMPEG`,
 * video/ffmpeg-choice.ts), and the test checks that the machine's encoder process really runs that
 * binary (video-product.ts: the product every-machine-video.e2e.ts played on before). A build
 * absent here is skipped with its reason printed. It runs in the live-video stage (one worker,
 * one product) so that no other browser test shares the two cores while Chrome counts freezes:
 * the product-wide e2e runs two products at once.
 */
import { existsSync, realpathSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { ourEncoders } from '../play/encoders';
import { cashIn, cashOut, joinFromLobby, leaveToLobby, waitFirstFrame } from '../play/play-helpers';
import { FFMPEG_CHOICES, SMOOTH_MACHINES, type FfmpegChoice } from './ffmpeg-choice';
import {
  CAPTURE_PEER_CONNECTIONS,
  describeSmoothness,
  presentedFrameTimes,
  readInboundVideo,
  recordPresentedFrames,
  smoothness,
} from './inbound-video';
import { apiToken, signIn, useEnglish } from '../web/helpers';
import { VIDEO_WARM_STREAMS, expect, test } from './video-product';

const PLAY_MS = 30_000;
const SPIN_EVERY_MS = 2500;
/** Frames decoded a second: 30 sent; the bug below decoded 26.9, CI's quiet runs 28.2–30.1. */
const MIN_DECODED_FPS = 27;
/**
 * Freezes Chrome may count in the half minute, per encoder. Debian's build: at most one (CI's two
 * cores are shared with Chrome and the product; quiet runs count 0). The bundled 2018 build: at most
 * five. Its picture-ID wrap (issue 24) froze it every 128 frames, 7 times in 30 s for ~600 ms each
 * (6,431 ms frozen a minute); since the fix it counts 0–4 (1,846 ms a minute at most) on this
 * 2-core machine, so this guards against the wrap coming back, not for a perfect picture. The goal,
 * no freeze at all, is `npm run bench -- smooth`'s, and the bundled build still misses it now and
 * then (docs/video.md, "Measurements").
 */
const MAX_FREEZES: Record<FfmpegChoice['name'], number> = { system: 1, bundled: 5 };
const MAX_FROZEN_MS_PER_MIN: Record<FfmpegChoice['name'], number> = { system: 1_000, bundled: 3_000 };

/** Every game channel state the screen showed (`data-connection`), in order. */
const RECORD_CHANNEL_STATES = `
  window.__channelStates = [];
  new MutationObserver(() => {
    const state = document.querySelector('.game')?.getAttribute('data-connection');
    if (state && window.__channelStates.at(-1) !== state) window.__channelStates.push(state);
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-connection'], childList: true });
`;

async function productPage(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: url });
  const page = await context.newPage();
  await useEnglish(page);
  await page.addInitScript(CAPTURE_PEER_CONNECTIONS);
  await page.addInitScript(RECORD_CHANNEL_STATES);
  return page;
}

for (const choice of FFMPEG_CHOICES) {
  const machineId = SMOOTH_MACHINES[choice.name];
  test(`${choice.name} ffmpeg: ${PLAY_MS / 1000} s of play with at most ${MAX_FREEZES[choice.name]} freezes, ≥ ${MIN_DECODED_FPS} frames decoded a second`, async ({ browser, videoProduct, productFaults }) => {
    if (!choice.path || !existsSync(choice.path)) {
      const reason = `${choice.name} ffmpeg ABSENT (${choice.path ?? 'no binary from @ffmpeg-installer/linux-x64'}): skipped`;
      console.log(reason);
      test.skip(true, reason);
      return;
    }
    test.setTimeout(PLAY_MS + 135_000);
    const page = await productPage(browser, videoProduct.product.url);
    const request = page.context().request;
    const token = await apiToken(request);
    await signIn(page);
    await joinFromLobby(page, request, token, machineId);
    await waitFirstFrame(page);
    const binary = realpathSync(choice.path);
    expect(
      ourEncoders(videoProduct.product.dataDir).map((e) => e.exe),
      `an encoder of this product runs ${binary} (machine ${machineId})`,
    ).toContain(binary);
    await cashIn(page, /^Load ₺50,00$/, 5000);
    // every-machine-video.e2e.ts ran first on this product and started every machine's encoder: the
    // product stops those nobody holds at its next idle sweep (within 30 s). Measured before that,
    // nine extra encoders shared the two cores with Chrome (26 frames decoded a second in CI).
    await expect
      .poll(() => ourEncoders(videoProduct.product.dataDir).length, { timeout: 75_000, intervals: [1000], message: 'only the warm streams and this machine encode' })
      .toBeLessThanOrEqual(VIDEO_WARM_STREAMS + 1);

    const before = await readInboundVideo(page);
    await recordPresentedFrames(page, '[data-testid="game-video"]');
    const spin = page.getByRole('button', { name: 'Spin', exact: true });
    const freeSpinsRound = page.getByText(/free spins left$/);
    const t0 = Date.now();
    let spins = 0;
    let freeSpinTicks = 0;
    while (Date.now() - t0 < PLAY_MS) {
      const nextAt = Date.now() + SPIN_EVERY_MS;
      // A free-spins round plays by itself with Spin disabled: the picture is measured all the same
      // (CI once drew one on the second spin that lasted the rest of the half minute: 2 clicks).
      if (await spin.isEnabled()) {
        await spin.click();
        spins++;
      } else if (await freeSpinsRound.isVisible()) freeSpinTicks++;
      await page.waitForTimeout(Math.max(0, Math.min(nextAt, t0 + PLAY_MS) - Date.now()));
    }
    const windowMs = Date.now() - t0;
    const s = smoothness(before, await readInboundVideo(page), await presentedFrameTimes(page), windowMs);
    console.log(`${choice.name} ffmpeg ${binary} on machine ${machineId}, ${spins} spins, ${freeSpinTicks} ticks of free spins: ${describeSmoothness(s)}`);

    const states = await page.evaluate(() => (window as unknown as { __channelStates: string[] }).__channelStates);
    console.log(`game channel states: ${states.join(' → ')}`);
    expect(productFaults(), 'restarts and error-level lines of the product').toEqual([]);
    // A cold join of the bundled build once left the screen on "Reconnecting to the machine..." (issue 24).
    expect(states.slice(states.indexOf('joined')), 'the game channel stayed joined while the reels spun').toEqual(['joined']);
    expect(spins + freeSpinTicks, 'the reels were spun (by Spin or in a free-spins round), a tick of 2.5 s each').toBeGreaterThan(3);
    expect(s.freezes, 'freezes Chrome counted (inbound-rtp freezeCount)').toBeLessThanOrEqual(MAX_FREEZES[choice.name]);
    expect(s.frozenMsPerMin, 'frozen ms a minute (inbound-rtp totalFreezesDuration)').toBeLessThanOrEqual(MAX_FROZEN_MS_PER_MIN[choice.name]);
    expect(s.decodedFps, 'frames decoded a second').toBeGreaterThanOrEqual(MIN_DECODED_FPS);

    await expect(spin).toBeEnabled({ timeout: 120_000 });
    await cashOut(page);
    await leaveToLobby(page);
    await page.context().close();
  });
}
