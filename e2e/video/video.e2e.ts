import { chromium, expect, test } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { PLAYOUT_DELAY_URI } from '@reel/protocol';
import { startHarness, type Harness } from './harness.js';
import { requireProjectFfmpeg } from './ffmpeg-choice.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.js';

let h: Harness;

let ffmpeg: string | undefined;

test.beforeAll(async () => {
  // Once per project: Debian's ffmpeg and the bundled 2018 build (playwright.config.ts).
  ffmpeg = requireProjectFfmpeg();
  h = await startHarness({ machineIds: [1], ...(ffmpeg ? { ffmpeg } : {}) });
  await h.waitStreaming([1]);
  if (ffmpeg) {
    // The cabinet probed the binary it was given and chose its arguments from that.
    const probe = h.cabinetLog.find((line) => line.includes(`ffmpeg ${ffmpeg}: version`));
    console.log(probe);
    expect(probe).toBeDefined();
  }
});
test.afterAll(async () => {
  await h?.stop();
});

const closedCount = async (reason: string) => (await h.media.client.stats()).closedViewers[reason] ?? 0;

test('a machine streams to Chromium: frames decode, a spin moves the reels, audio arrives, pagehide releases the viewer', async ({
  page,
}) => {
  await page.goto(`${h.baseUrl}/video-test.html`);
  await page.evaluate(() => window.reel.start(1));
  await expect.poll(() => page.evaluate(() => window.reel.status()), { timeout: 10_000 }).toBe('connected');
  await expect
    .poll(async () => (await page.evaluate(() => window.reel.stats()))?.framesDecoded ?? 0, {
      timeout: 15_000,
    })
    .toBeGreaterThan(60);
  const firstFrameMs = await page.evaluate(() => window.reel.firstFrameMs());
  console.log(`first decoded frame ${firstFrameMs?.toFixed(0)} ms after the offer`);
  expect(firstFrameMs).not.toBeNull();

  // Credits in, then a still picture of the reels (no win lines yet on a fresh machine).
  const credit = await h.command(1, { type: 'credit_in', amountCents: 1000 });
  expect(credit.outcome).toBe('ok');
  // Two reads 300 ms apart must agree. On a loaded machine a late frame can still be on its way,
  // so the pair is read again (up to 5 s) rather than trusting the first one.
  let before = await page.evaluate(() => window.reel.reels());
  let stillDiff = Infinity;
  await expect
    .poll(
      async () => {
        await page.waitForTimeout(300);
        const still = await page.evaluate(() => window.reel.reels());
        stillDiff = await page.evaluate(([a, b]) => window.reel.diff(a!, b!), [before, still]);
        before = still;
        return stillDiff;
      },
      { timeout: 5_000, intervals: [0] },
    )
    .toBeLessThan(4);

  // The reels move once the spin command has gone through the agent, the encoder and the forwarder:
  // poll for the motion (a spin lasts over 2 s) instead of guessing how long that path takes.
  const spin = h.command(1, { type: 'spin' });
  let spinDiff = 0;
  await expect
    .poll(
      async () => {
        const during = await page.evaluate(() => window.reel.reels());
        spinDiff = await page.evaluate(([a, b]) => window.reel.diff(a!, b!), [before, during]);
        return spinDiff;
      },
      { timeout: 2_000, intervals: [100] },
    )
    .toBeGreaterThan(10);
  console.log(`reel area difference: still ${stillDiff.toFixed(2)}, while spinning ${spinDiff.toFixed(2)}`);
  expect((await spin).outcome).toBe('ok');

  const stats = await page.evaluate(() => window.reel.stats());
  console.log(`stats: ${JSON.stringify(stats)}`);
  expect(stats!.audioPacketsReceived).toBeGreaterThan(20);
  expect(stats!.frameWidth).toBe(640);
  // The forwarder tells Chrome to render each frame as soon as it is decoded (zero playout delay).
  expect(await page.evaluate(() => window.reel.videoExtensions())).toContain(PLAYOUT_DELAY_URI);

  // Navigating away fires pagehide: the beacon must release the viewer at once.
  const pagehideBefore = await closedCount('pagehide');
  await page.evaluate(() => window.reel.pagehide());
  await expect.poll(() => closedCount('pagehide'), { timeout: 2000 }).toBe(pagehideBefore + 1);
  expect((await h.media.client.stats()).viewers).toHaveLength(0);
});

test('switching the quality band keeps the session and the picture', async ({ page }) => {
  await page.goto(`${h.baseUrl}/video-test.html`);
  await page.evaluate(() => window.reel.start(1));
  await expect
    .poll(async () => (await page.evaluate(() => window.reel.stats()))?.framesDecoded ?? 0)
    .toBeGreaterThan(10);
  const r = await h.command(1, { type: 'set_band', bandId: 'low' });
  expect(r.outcome).toBe('ok');
  await expect
    .poll(async () => (await page.evaluate(() => window.reel.stats()))?.frameWidth ?? 0, { timeout: 10_000 })
    .toBe(426);
  const decodedAt426 = (await page.evaluate(() => window.reel.stats()))!.framesDecoded;
  await expect
    .poll(async () => (await page.evaluate(() => window.reel.stats()))!.framesDecoded)
    .toBeGreaterThan(decodedAt426 + 30);
  expect(await page.evaluate(() => window.reel.status())).toBe('connected');
  await h.command(1, { type: 'set_band', bandId: 'high' });
  await page.evaluate(() => window.reel.stop());
});

test('a viewer whose browser dies is dropped within 9.5 s', async () => {
  // A browser of our own that we can kill without a goodbye (no pagehide, no DTLS close).
  const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const browser = await chromium.connect(server.wsEndpoint());
  const page = await browser.newPage();
  await page.goto(`${h.baseUrl}/video-test.html`);
  await page.evaluate(() => window.reel.start(1));
  await expect
    .poll(async () => (await page.evaluate(() => window.reel.stats()))?.framesDecoded ?? 0)
    .toBeGreaterThan(10);
  expect((await h.media.client.stats()).viewers).toHaveLength(1);
  const deadBefore = await closedCount('dead');
  const pid = server.process().pid;
  expect(pid).toBeDefined();
  const killedAt = Date.now();
  // Chromium's renderer (where WebRTC runs) is a child: kill the whole tree we launched.
  for (const child of [...descendants(pid!), pid!]) process.kill(child, 'SIGKILL');
  await expect.poll(() => closedCount('dead'), { timeout: 11_000, intervals: [100] }).toBe(deadBefore + 1);
  const tookMs = Date.now() - killedAt;
  console.log(`dead viewer dropped after ${tookMs} ms`);
  expect(tookMs).toBeLessThan(9500);
  await browser.close().catch(() => {});
  await server.close().catch(() => {});
});

function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of parents)
      if (parent === p) {
        out.push(child);
        walk(child);
      }
  };
  walk(pid);
  return out;
}
