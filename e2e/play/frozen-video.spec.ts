/**
 * The player sees the video path honestly: the latency indicator carries the browser's own round
 * trip and jitter (getStats), and when the picture freezes for more than a second the screen says
 * so and Spin waits until it moves again (a player must see the spin they pay for and its outcome).
 *
 * The freeze is real: this product instance's encoders (ffmpeg, found by the DATA_DIR in their
 * environment so other products on the machine are not touched) are stopped with SIGSTOP, so no
 * new frame reaches the browser, then continued with SIGCONT; a second, longer stop shows that the
 * product replaces a hung encoder by itself.
 */
import { expect, test } from '@playwright/test';
import { apiToken, createPlayer, operator, signIn, useEnglish } from '../web/helpers';
import { ourEncoders } from './encoders';
import { cashIn, cashOut, leaveToLobby, machineGroup, waitFirstFrame } from './play-helpers';

const MACHINE = 11;
/**
 * How long the short freeze lasts: past the one second that takes Spin away, and well before the
 * three seconds after which Chromium asks for a keyframe (and the cabinet restarts its encoder).
 */
const SHORT_FREEZE_MS = 2000;

function signal(pids: number[], sig: NodeJS.Signals): void {
  for (const pid of pids)
    try {
      process.kill(pid, sig);
    } catch {
      // exited meanwhile
    }
}

test.beforeEach(async ({ page }) => useEnglish(page));

test('the latency indicator shows the real path; a frozen picture is said and Spin waits until it moves', async ({ page, request }) => {
  test.setTimeout(90_000);
  const player = createPlayer('frozen');
  operator('deposit', player.username, '50.00');
  const token = await apiToken(request, player.username, player.password);
  const { machine } = await machineGroup(request, token, MACHINE);
  await signIn(page, player.username, player.password);
  await page.goto(`/game/${machine.id}/${encodeURIComponent(machine.name)}`);
  await waitFirstFrame(page);
  await cashIn(page, /^Load ₺5,00$/, 500);
  const spin = page.getByRole('button', { name: 'Spin', exact: true });
  await expect(spin).toBeEnabled();

  // The indicator: round trip and jitter as Chromium measures them, in its title and data.
  const latency = page.getByTestId('latency');
  await expect(latency).toHaveAttribute('data-rtt-ms', /^\d+$/, { timeout: 15_000 });
  await expect(latency).toHaveAttribute('data-jitter-ms', /^\d+$/);
  await expect(latency).toHaveAttribute('title', /^Round trip \d+ ms, jitter \d+ ms$/);
  console.log(
    `indicator: ${await latency.textContent()} (${await latency.getAttribute('title')}, quality ${await latency.getAttribute('data-quality')})`,
  );

  // A short freeze: it ends before Chromium's own keyframe request (below), so the picture can
  // only come back through SIGCONT.
  let encoders = ourEncoders().map((e) => e.pid);
  expect(encoders.length, 'this instance has encoders running').toBeGreaterThan(0);
  const frozenAt = Date.now();
  signal(encoders, 'SIGSTOP');
  try {
    await expect(page.getByTestId('link-warning')).toHaveText('Picture frozen: play waits', { timeout: 5000 });
    await expect(spin).toBeDisabled();
    await expect(latency).toHaveAttribute('data-degraded', 'true');
    await expect(latency).toHaveAttribute('data-quality', 'poor');
    const seenAfterMs = Date.now() - frozenAt;
    console.log(`freeze shown and Spin disabled ${seenAfterMs} ms after the encoders stopped`);
    // Not before a second: a short hiccup must not take the button away.
    expect(seenAfterMs).toBeGreaterThanOrEqual(1000);
    await page.waitForTimeout(Math.max(0, SHORT_FREEZE_MS - (Date.now() - frozenAt)));
    await expect(spin).toBeDisabled();
  } finally {
    signal(encoders, 'SIGCONT');
  }
  const resumedAt = Date.now();
  await expect(page.getByTestId('link-warning')).toBeHidden({ timeout: 10_000 });
  await expect(spin).toBeEnabled();
  console.log(`picture moving and Spin enabled again ${Date.now() - resumedAt} ms after the encoders continued`);

  // A hung encoder: it stays stopped. Chromium asks for a keyframe after 3 s without a frame; the
  // cabinet answers by starting a new encoder (machine-stream.ts requestKeyframe), so the picture
  // comes back by itself.
  encoders = ourEncoders().map((e) => e.pid);
  const hungAt = Date.now();
  signal(encoders, 'SIGSTOP');
  try {
    await expect(page.getByTestId('link-warning')).toHaveText('Picture frozen: play waits', { timeout: 5000 });
    await expect(page.getByTestId('link-warning')).toBeHidden({ timeout: 15_000 });
    await expect(spin).toBeEnabled();
    expect(ourEncoders().map((e) => e.pid).filter((pid) => !encoders.includes(pid)).length, 'a new encoder took over').toBeGreaterThan(0);
    console.log(`hung encoder replaced: picture moving again ${Date.now() - hungAt} ms after it stopped`);
  } finally {
    signal(encoders, 'SIGCONT');
  }

  // The machine is left as found: a session still in its grace period would refuse the next join
  // (a repeated run, `--repeat-each`, plays the same machine).
  await cashOut(page);
  await leaveToLobby(page);
});
