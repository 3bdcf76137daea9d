import { expect, test } from '@playwright/test';
import type { BrandWithMachines } from '@reel/protocol';
import { auth, joinFromLobby, leaveToLobby, waitFirstFrame } from '../play/play-helpers';
import { apiToken, signIn, useEnglish } from '../web/helpers';

/**
 * What a new user sees after `npm start`: every demo machine a player may take (the reserved ones
 * aside) shows live video on its game screen within seconds, whichever ffmpeg the cabinets picked.
 */
test('every playable demo machine shows live video on its game screen', async ({ page, request }) => {
  test.setTimeout(240_000);
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
});
