/**
 * Autoplay's own stops in the browser (issue 28): the player chooses 10 spins when turning it on,
 * the server turns it off after the tenth game autoplay played and says so; back on the lobby the
 * closed session's summary shows the same spins as its /slot-sessions row.
 */
import { expect, test } from '../product/fixtures';
import { apiToken, createPlayer, operator, signIn, useEnglish } from '../web/helpers';
import { BONUS_ROUND_TIMEOUT_MS, cashIn, cashOut, leaveToLobby, machineGroup, sessionRows, spins, startAutoplay, waitFirstFrame, waitIdle } from './play-helpers';

/** A machine no other browser test plays on. */
const MACHINE = 8;

test('autoplay stops at the chosen number of spins, and the lobby shows the session summary', async ({ page, request }) => {
  test.setTimeout(240_000);
  await useEnglish(page);
  const player = createPlayer('autostop');
  operator('deposit', player.username, '100.00');
  const token = await apiToken(request, player.username, player.password);
  const { machine } = await machineGroup(request, token, MACHINE);
  await signIn(page, player.username, player.password);
  await page.goto(`/game/${machine.id}/${encodeURIComponent(machine.name)}`);
  await waitFirstFrame(page);
  await cashIn(page, /^Load ₺50,00$/, 5000);

  const before = await spins(page);
  await startAutoplay(page, 10);
  // Ten games, and a bonus round's free spins if one comes: then the server turns autoplay off.
  const autoplay = page.getByRole('button', { name: 'Autoplay', exact: true });
  await expect(autoplay).toHaveAttribute('aria-pressed', 'false', { timeout: BONUS_ROUND_TIMEOUT_MS });
  await expect(page.getByRole('status').filter({ hasText: 'Autoplay stopped: your 10 spins are played' })).toBeVisible();
  await expect.poll(() => spins(page)).toBe(before + 10);
  await waitIdle(page);
  expect(await spins(page)).toBe(before + 10);

  await cashOut(page);
  await leaveToLobby(page);
  const summary = page.getByRole('region', { name: `Your session on ${machine.name} has ended` });
  await expect(summary).toBeVisible({ timeout: 20_000 });
  const [row] = await sessionRows(request, token);
  expect(row!.spin_count).toBe(before + 10);
  await expect(summary.getByTestId('session-summary')).toContainText(`Spins${before + 10}`);
  await summary.getByRole('button', { name: 'Close' }).click();
  await expect(summary).toHaveCount(0);
});
