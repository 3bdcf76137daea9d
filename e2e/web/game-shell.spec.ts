/** The game shell's sizes are the spec's (section 9): sidebar 240 px wide, header 120 px high. */
import { Layout } from '@reel/protocol';
import { expect, test } from '../product/fixtures';
import { apiToken, createPlayer, operator, signIn, useEnglish } from './helpers';
import { leaveToLobby, machineGroup, waitFirstFrame } from '../play/play-helpers';

/** A machine no other browser test plays on. */
const MACHINE = 11;

test('the game shell: header 120 px high, session sidebar 240 px wide', async ({ page, request }) => {
  await page.setViewportSize({ width: 1366, height: 850 });
  await useEnglish(page);
  const player = createPlayer('shell');
  operator('deposit', player.username, '10.00');
  const token = await apiToken(request, player.username, player.password);
  const { machine } = await machineGroup(request, token, MACHINE);
  await signIn(page, player.username, player.password);
  await page.goto(`/game/${machine.id}/${encodeURIComponent(machine.name)}`);
  await waitFirstFrame(page);

  const header = page.locator('.game__bar');
  expect((await header.boundingBox())!.height).toBe(Layout.headerHeight);
  await page.getByRole('button', { name: 'Session panel' }).click();
  const sidebar = page.getByRole('complementary', { name: 'Session panel' });
  await expect(sidebar).toBeVisible();
  expect((await sidebar.boundingBox())!.width).toBe(Layout.sidebarWidth);
  await page.keyboard.press('Escape');
  await leaveToLobby(page);
});
