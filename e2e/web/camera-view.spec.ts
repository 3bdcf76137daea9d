/**
 * SHOW_WEBCAM: the player switches the video between the machine's screen and the camera on the
 * whole cabinet (spec section 3, "video type (camera is one value)"). The picture really changes:
 * the cabinet draws the camera view into the stream it already sends, and the camera view's wall is
 * a colour no screen has (CAMERA_BACKDROP), read back from the <video> element's decoded frames.
 * While the camera shows, the screen-rotate toggle (portrait only) is hidden.
 */
import { CAMERA_BACKDROP } from '@reel/protocol';
import type { Page } from '@playwright/test';
import { expect, test } from '../product/fixtures';
import { apiToken, createPlayer, signIn, useEnglish } from './helpers';
import { leaveToLobby, machineGroup, waitFirstFrame } from '../play/play-helpers';

/** A machine the other game-screen tests use one at a time (workers: 1). */
const MACHINE = 11;
const BACKDROP = [1, 3, 5].map((k) => parseInt(CAMERA_BACKDROP.slice(k, k + 2), 16));

/** The colour of the current frame left of the cabinet (design 40,180 of 640×360), as decoded. */
const sideColour = (page: Page) =>
  page.evaluate(() => {
    const video = document.querySelector<HTMLVideoElement>('[data-testid="game-video"]')!;
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    const context = canvas.getContext('2d')!;
    context.drawImage(video, 0, 0);
    const x = Math.round((40 / 640) * canvas.width);
    const y = Math.round((180 / 360) * canvas.height);
    // A 5×5 average, so the encoder's noise does not decide.
    const data = context.getImageData(x - 2, y - 2, 5, 5).data;
    const sum = [0, 0, 0];
    for (let i = 0; i < data.length; i += 4) for (let c = 0; c < 3; c++) sum[c]! += data[i + c]!;
    return sum.map((v) => Math.round(v / 25));
  });
const isBackdrop = async (page: Page) =>
  (await sideColour(page)).every((value, c) => Math.abs(value - BACKDROP[c]!) <= 24);

test.beforeEach(async ({ page }) => useEnglish(page));

test('the camera switch shows the whole cabinet, hides the rotate toggle in portrait, and switches back', async ({ page, request }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 600, height: 1000 });
  const player = createPlayer('camera');
  const token = await apiToken(request, player.username, player.password);
  const { machine } = await machineGroup(request, token, MACHINE);
  await signIn(page, player.username, player.password);
  await page.goto(`/game/${machine.id}/${encodeURIComponent(machine.name)}`);
  await waitFirstFrame(page);

  const camera = page.getByRole('button', { name: 'Camera view' });
  const rotate = page.getByRole('button', { name: 'Rotate screen' });
  await expect(camera).toHaveAttribute('aria-pressed', 'false');
  await expect(rotate).toBeVisible();
  expect(await isBackdrop(page)).toBe(false);

  await camera.click();
  await expect(camera).toHaveAttribute('aria-pressed', 'true');
  await expect(rotate).toHaveCount(0);
  await expect.poll(() => isBackdrop(page), { timeout: 10_000 }).toBe(true);

  await camera.click();
  await expect(camera).toHaveAttribute('aria-pressed', 'false');
  await expect(rotate).toBeVisible();
  await expect.poll(() => isBackdrop(page), { timeout: 10_000 }).toBe(false);
  await leaveToLobby(page);
});

test('with SHOW_WEBCAM off there is no camera switch', async ({ page, request }) => {
  await page.route('**/Settings.json', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), SHOW_WEBCAM: false } });
  });
  const player = createPlayer('nocamera');
  const token = await apiToken(request, player.username, player.password);
  const { machine } = await machineGroup(request, token, MACHINE);
  await signIn(page, player.username, player.password);
  await page.goto(`/game/${machine.id}/${encodeURIComponent(machine.name)}`);
  await waitFirstFrame(page);
  await expect(page.getByRole('button', { name: 'Session panel' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Camera view' })).toHaveCount(0);
  await leaveToLobby(page);
});
