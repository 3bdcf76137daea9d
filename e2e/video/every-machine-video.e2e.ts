/**
 * The real product path of live video, web app → server → cabinet → media → Chromium: the whole
 * product started the way `npm start` starts it (scripts/start.ts) on a free port and a fresh data
 * folder (video-product.ts; this spec runs first on it, so it finds it as a new user does). Every
 * demo machine a player may take (the reserved ones aside) shows live video on its game screen
 * within seconds, whichever ffmpeg its cabinet runs, and the product never had to heal a crash or
 * log an error meanwhile.
 */
import type { BrandWithMachines } from '@reel/protocol';
import { auth, joinFromLobby, leaveToLobby, waitFirstFrame } from '../play/play-helpers';
import { apiToken, signIn, useEnglish } from '../web/helpers';
import { expect, test } from './video-product';

test('every playable demo machine of the product shows live video on its game screen', async ({ browser, videoProduct, productFaults }) => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ baseURL: videoProduct.product.url });
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
  expect(productFaults(), 'restarts and error-level lines of the product').toEqual([]);
});
