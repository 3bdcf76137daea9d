import { expect, test } from '../product/fixtures';
import { apiToken, createPlayer, expectAccessible, operator, screenshot, signIn, useEnglish } from '../web/helpers';
import { BONUS_ROUND_TIMEOUT_MS, cashIn, leaveToLobby, machineGroup, spins, waitFirstFrame, waitIdle } from './play-helpers';

const MACHINE = 7;

test.beforeEach(async ({ page }) => useEnglish(page));

test('the game screen at 360×640 portrait: keyboard play, sidebar, rotate, accessible', async ({ page, request }) => {
  test.setTimeout(90_000 + BONUS_ROUND_TIMEOUT_MS);
  await page.setViewportSize({ width: 360, height: 640 });
  const player = createPlayer('screen');
  operator('deposit', player.username, '100.00');
  const token = await apiToken(request, player.username, player.password);
  const { machine } = await machineGroup(request, token, MACHINE);
  await signIn(page, player.username, player.password);
  await page.goto(`/game/${machine.id}/${encodeURIComponent(machine.name)}`);
  await waitFirstFrame(page);
  await cashIn(page, /^Load ₺5,00$/, 500);

  // Space spins wherever focus is, even on a cash-in button (no second cash in). Pressed only once
  // Spin is enabled: while the picture is frozen the product ignores it on purpose.
  await waitIdle(page);
  await page.getByRole('button', { name: /^Load ₺5,00$/ }).focus();
  const before = await spins(page);
  await page.keyboard.press('Space');
  await expect.poll(() => spins(page), { timeout: 15_000 }).toBeGreaterThan(before);
  await expect(page.getByTestId('machine-credits')).not.toHaveText('₺10,00');
  await waitIdle(page);
  await page.getByRole('button', { name: 'Spin', exact: true }).blur();
  await screenshot(page, 'game-360x640');
  await expectAccessible(page, 'game screen 360x640');

  // Portrait: the rotate toggle exists; fullscreen is offered on this (non-iOS) browser.
  await expect(page.getByRole('button', { name: 'Rotate screen' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Fullscreen' })).toBeVisible();

  await page.getByRole('button', { name: 'Session panel' }).click();
  const sidebar = page.getByRole('complementary', { name: 'Session panel' });
  await expect(sidebar).toBeVisible();
  await expect(sidebar.getByRole('radio', { name: /640x360/ })).toBeChecked();
  await expect(sidebar.getByRole('button', { name: 'Discount' })).toBeVisible();
  await screenshot(page, 'game-360x640-sidebar');
  await page.keyboard.press('Escape');
  await expect(sidebar).toBeHidden();

  await leaveToLobby(page);
});
