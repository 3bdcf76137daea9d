/**
 * When video cannot start, the player is told so. The whole product is started the way `npm start`
 * starts it (scripts/start.ts: server, media process, demo cabinets) on a free port with its own
 * data directory, but with `FFMPEG` pointing at a binary that fails like the bundled 2018 ffmpeg
 * did with the modern arguments. `WARM_STREAMS=0`, so a machine's encoder starts only when a player
 * joins it: the player is on the game screen when the cabinet gives up.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { Code, messageFor } from '@reel/protocol';
import { freePort } from '@reel/process';
import { expectAccessible, screenshot, signIn, useEnglish } from '../web/helpers';
import { joinFromLobby, machineGroup, auth } from '../play/play-helpers';
import { REPO_ROOT } from '../product/instances';
import { startProduct, type RunningProduct } from '../product/product-process';

const MACHINE = 2;
const CAUSE = "Unrecognized option 'fps_mode'.";

let product: RunningProduct | null = null;
let baseURL = '';
let binDir = '';
const output: string[] = [];

test.beforeAll(async () => {
  test.setTimeout(240_000);
  binDir = mkdtempSync(path.join(tmpdir(), 'reel-failing-ffmpeg-'));
  const ffmpeg = path.join(binDir, 'ffmpeg');
  writeFileSync(
    ffmpeg,
    `#!/bin/sh\necho "${CAUSE}" >&2\necho "Error splitting the argument list: Option not found" >&2\nexit 1\n`,
  );
  chmodSync(ffmpeg, 0o755);

  const port = await freePort();
  product = await startProduct({
    port,
    dataDir: path.join(REPO_ROOT, `.tmp/e2e-video-unavailable-${port}`),
    env: { LOG_LEVEL: 'warn', WARM_STREAMS: '0', FFMPEG: ffmpeg },
    onLine: (line) => output.push(line),
  });
  baseURL = product.url;
});

test.afterAll(async () => {
  await product?.stop();
  if (product) rmSync(product.dataDir, { recursive: true, force: true });
  rmSync(binDir, { recursive: true, force: true });
});

test('a machine whose encoder cannot run: the game screen says video unavailable with code 70000, Spin stays disabled, Back to lobby works and the lobby shows the machine Not Available', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await useEnglish(page);
  const token = (
    await (
      await context.request.post('/api/login', {
        data: { username: 'demo', password: 'demo1234', site_id: 0 },
      })
    ).json()
  ).token as string;

  await signIn(page);
  await joinFromLobby(page, context.request, token, MACHINE);
  // The cabinet tries its encoder with backoff (~8 s), then reports the machine in error.
  const notice = page.getByTestId('video-unavailable');
  await expect(notice).toBeVisible({ timeout: 45_000 });
  await expect(notice).toHaveAttribute('role', 'alert');
  await expect(notice).toContainText('Video unavailable');
  await expect(notice).toContainText(messageFor(Code.PipelineFailed, 'en')!);
  await expect(page.getByTestId('video-unavailable-code')).toHaveText(`Code ${Code.PipelineFailed}`);
  await expect(page.getByTestId('video-state')).toHaveText('Video unavailable');
  await expect(page.locator('.stage .spinner')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Spin', exact: true })).toBeDisabled();
  console.log(`game screen: ${(await notice.innerText()).replace(/\s+/g, ' ')}`);
  await screenshot(page, 'game-video-unavailable');
  await expectAccessible(page, 'game screen, video unavailable');

  // The cabinet logged the machine's cause once (first failure + give-up), not once per retry
  // (its startup probe of the binary says it too, once per binary).
  const mentions = output.filter((line) => line.includes(CAUSE));
  console.log(mentions.join('\n'));
  expect(
    mentions.filter((line) => line.startsWith(`[cabinet]`) && line.includes(`machine ${MACHINE} `)),
  ).toHaveLength(2);
  expect(mentions.filter((line) => line.startsWith('[cabinets] machine video unavailable'))).toHaveLength(1);
  expect(output.filter((line) => line.includes('Error splitting'))).toEqual([]);

  await notice.getByRole('button', { name: 'Back to lobby' }).click();
  await expect(page).toHaveURL(/\/lobby$/, { timeout: 15_000 });
  const { group } = await machineGroup(context.request, token, MACHINE);
  await page.getByRole('link', { name: group.brand.name, exact: true }).click();
  await expect(page.locator(`article[data-machine-id="${MACHINE}"] [data-status]`)).toHaveText(
    'Not Available',
  );
  const all = await (await context.request.get('/api/machine/all', auth(token))).json();
  const status = all
    .flatMap((entry: { machines: { id: number; status: string }[] }) => entry.machines)
    .find((m: { id: number }) => m.id === MACHINE).status;
  expect(status).toBe('not_available');
  // The session was closed on the way out (cash out works on a machine without video).
  await expect
    .poll(async () => (await (await context.request.get('/api/player/session', auth(token))).json()).show)
    .toBe(false);
  await context.close();
});
