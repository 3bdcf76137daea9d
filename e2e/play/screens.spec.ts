import { expect, test } from '../product/fixtures';
import { apiToken, createPlayer, expectAccessible, operator, screenshot, signIn, useEnglish } from '../web/helpers';
import { BONUS_ROUND_TIMEOUT_MS, balanceCents, cashIn, leaveToLobby, machineGroup, sessionRows, spins, transactionRows, waitFirstFrame, waitIdle } from './play-helpers';

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

  // Space spins wherever focus is, even on a cash-in button, and does not press that button (no
  // second cash in: checked below, once the leave's cash out went through the same channel after
  // it). Pressed only once Spin is enabled: while the picture is frozen the product ignores it on purpose.
  await waitIdle(page);
  await page.getByRole('button', { name: /^Load ₺5,00$/ }).focus();
  const before = await spins(page);
  await page.keyboard.press('Space');
  await expect.poll(() => spins(page), { timeout: 15_000 }).toBeGreaterThan(before);
  await waitIdle(page);
  await page.getByRole('button', { name: 'Spin', exact: true }).blur();
  await screenshot(page, 'game-360x640');
  await expectAccessible(page, 'game screen 360x640');

  // Portrait: the rotate toggle turns the picture a quarter turn (landscape video, upright on a
  // phone held sideways) and back; fullscreen is offered on this (non-iOS) browser.
  const rotate = page.getByRole('button', { name: 'Rotate screen' });
  const frame = page.locator('.stage__frame');
  const upright = async () => {
    const box = (await frame.boundingBox())!;
    return box.width > box.height;
  };
  expect(await upright()).toBe(true);
  await rotate.click();
  await expect(rotate).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(upright).toBe(false);
  await screenshot(page, 'game-360x640-rotated');
  await rotate.click();
  await expect(rotate).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(upright).toBe(true);
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
  // One cash in (the button pressed above), one cash out, and the wallet back at 100.00 less what
  // the games lost or plus what they won: a second cash in would show here as a second row.
  await expect.poll(async () => (await sessionRows(request, token))[0]?.status).toBe('closed');
  const [session] = await sessionRows(request, token);
  const moves = (await transactionRows(request, token)).filter((row) => row.session_id === session!.id);
  expect(moves.filter((row) => row.type === 'Cash In').map((row) => row.amount)).toEqual([-500]);
  const cashOut = moves.find((row) => row.type === 'Cash Out')?.amount ?? 0;
  expect(await balanceCents(request, token)).toBe(10_000 - 500 + cashOut);
});
