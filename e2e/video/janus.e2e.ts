import { expect, test } from '@playwright/test';
import { existsSync } from 'node:fs';
import { PLAYOUT_DELAY_URI } from '@reel/protocol';
import { startHarness } from './harness.js';
import { requireProjectFfmpeg } from './ffmpeg-choice.js';
import { chooseJanus, describeJanus } from '../../apps/media/src/janus/janus-install.js';

const JANUS = chooseJanus().bin;

test('the same cabinet RTP through a Janus streaming mountpoint plays with the same browser code', async ({
  page,
}) => {
  const absent = existsSync(JANUS) ? '' : `${JANUS} not found (npm test installs Debian's janus and builds the NACK-fixed one when run as root)`;
  if (absent) console.log(`janus: skipped, ${absent}`);
  test.skip(Boolean(absent), absent);
  const ffmpeg = requireProjectFfmpeg();
  console.log(`janus: RAN ${describeJanus()} (config written to a temp dir, HTTP API on 127.0.0.1)`);
  const t0 = Date.now();
  const step = (what: string) => console.log(`janus: ${what} at +${Date.now() - t0} ms`);
  const h = await startHarness({ machineIds: [1], backend: 'janus', ...(ffmpeg ? { ffmpeg } : {}) });
  try {
    step('harness up');
    // The mountpoint's first video (the harness reads Janus' age of it); a loaded machine's cabinet
    // took 16 s to get there (2026-11-27, load ~30).
    await h.waitStreaming([1], 45_000);
    step('streaming');
    await page.goto(`${h.baseUrl}/video-test.html`);
    await page.evaluate(() => window.reel.start(1));
    // 60 frames are 2 s of video; the headroom is for a loaded CI machine, where a lost keyframe
    // early on costs an encoder restart (keyframe request) before the picture moves again.
    await expect
      .poll(async () => (await page.evaluate(() => window.reel.stats()))?.framesDecoded ?? 0, {
        timeout: 45_000,
      })
      .toBeGreaterThan(60);
    step('60 frames decoded');
    const stats = await page.evaluate(() => window.reel.stats());
    console.log(
      `janus stats: ${JSON.stringify(stats)}; first frame ${(await page.evaluate(() => window.reel.firstFrameMs()))?.toFixed(0)} ms`,
    );
    expect(stats!.audioPacketsReceived).toBeGreaterThan(10);
    const media = await h.media.client.stats();
    expect(media.backend).toBe('janus');
    // The adapter cannot count the cabinet's packets (they go straight into Janus): it says so
    // (null, where it once said 0 for a machine that played) and reports the mountpoint's freshness.
    const machine = media.machines.find((m) => m.machineId === 1);
    expect(machine?.videoPackets).toBeNull();
    expect(machine?.lastPacketAgeMs).toBeLessThan(1000);
    // Render-at-once (zero playout delay) is negotiated through Janus too.
    expect(await page.evaluate(() => window.reel.videoExtensions())).toContain(PLAYOUT_DELAY_URI);
    // Retransmissions reach the browser: RTX only with an RTX SSRC for it (Janus 1.4.1 answering an
    // RTX offer agreed to RTX without one, so Chrome got none of its retransmissions; janus-sdp.ts).
    const answer = await page.evaluate(() => window.reel.videoAnswer());
    expect(/^a=rtpmap:\d+ rtx\//m.test(answer) && !/^a=ssrc-group:FID /m.test(answer), answer).toBe(false);
    await page.evaluate(() => window.reel.pagehide());
    // The beacon and Janus' own hangup (DTLS alert) race; either way the viewer must be gone.
    await expect.poll(async () => (await h.media.client.stats()).viewers.length, { timeout: 3000 }).toBe(0);
    const closed = (await h.media.client.stats()).closedViewers;
    console.log(`janus viewers closed: ${JSON.stringify(closed)}`);
    expect((closed.pagehide ?? 0) + (closed.dead ?? 0)).toBe(1);
    step('viewer released');
  } finally {
    await h.stop();
    step('harness stopped');
  }
});
