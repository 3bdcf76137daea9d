/**
 * The real product path of live video, web app → server → cabinet → media → Chromium: the whole
 * product started the way `npm start` starts it (scripts/start.ts) on a free port and a fresh data
 * folder, as a new user finds it. Every demo machine a player may take (the reserved ones aside)
 * shows live video on its game screen within seconds, whichever ffmpeg the cabinets picked, and the
 * product never had to heal a crash or log an error meanwhile.
 */
import path from 'node:path';
import { rmSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { BrandWithMachines } from '@reel/protocol';
import { freePort } from '@reel/process';
import { auth, joinFromLobby, leaveToLobby, waitFirstFrame } from '../play/play-helpers';
import { apiToken, signIn, useEnglish } from '../web/helpers';
import { REPO_ROOT } from '../product/instances';
import { startProduct, type RunningProduct } from '../product/product-process';
import { faultOf } from '../product/product-log';

let product: RunningProduct | null = null;
const output: string[] = [];

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const port = await freePort();
  product = await startProduct({
    port,
    dataDir: path.join(REPO_ROOT, `.tmp/e2e-video-product-${port}`),
    // As `npm start` runs it (warm streams and all), only quieter.
    env: { LOG_LEVEL: 'warn' },
    onLine: (line) => output.push(line),
  });
});

test.afterAll(async () => {
  await product?.stop();
  if (product) rmSync(product.dataDir, { recursive: true, force: true });
});

test('every playable demo machine of the product shows live video on its game screen', async ({ browser }) => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ baseURL: product!.url });
  const page = await context.newPage();
  const request = context.request;
  await useEnglish(page);
  const token = await apiToken(request);
  const groups = (await (await request.get('/api/machine/all', auth(token))).json()) as BrandWithMachines[];
  const machines = groups.flatMap((group) => group.machines).filter((machine) => !machine.reservation);
  expect(machines.length).toBeGreaterThanOrEqual(9);
  await signIn(page);
  for (const machine of machines) {
    await test.step(`machine ${machine.id} (${machine.name})`, async () => {
      await joinFromLobby(page, request, token, machine.id);
      const started = Date.now();
      await waitFirstFrame(page);
      console.log(`machine ${machine.id}: first frame ${Date.now() - started} ms after the game screen opened`);
      await leaveToLobby(page);
    });
  }
  await context.close();
  expect(output.filter((line) => faultOf(line)), 'restarts and error-level lines of the product').toEqual([]);
});
