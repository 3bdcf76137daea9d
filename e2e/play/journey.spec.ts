import { expect, test } from '../product/fixtures';
import { apiToken, expectAccessible, screenshot, signIn, useEnglish } from '../web/helpers';
import { BONUS_ROUND_TIMEOUT_MS, balanceCents, cashIn, cashOut, credits, joinFromLobby, leaveToLobby, parseMoney, sessionRows, spinOnce, transactionRows, waitFirstFrame } from './play-helpers';

/** Distinct machines per test so the tests never meet on a cabinet (4, 8 and 12 are reserved). */
const MACHINE = 1;

test.beforeEach(async ({ page }) => useEnglish(page));

test('the full journey: lobby, live video, cash in 50.00, five spins, cash out; wallet and history match the meters to the cent', async ({ page, request }) => {
  // Five spins: allow for one free-spins round among them.
  test.setTimeout(120_000 + BONUS_ROUND_TIMEOUT_MS);
  const token = await apiToken(request);
  const walletBefore = await balanceCents(request, token);
  expect(walletBefore).toBeGreaterThanOrEqual(5000);

  await signIn(page);
  await joinFromLobby(page, request, token, MACHINE);
  await waitFirstFrame(page);
  const framesDecoded = await page.evaluate(() => (document.querySelector('video') as HTMLVideoElement).getVideoPlaybackQuality().totalVideoFrames);
  expect(framesDecoded).toBeGreaterThan(0);
  await expect(page.getByTestId('latency')).toContainText(/ms|latency/i);

  const startCredits = await credits(page);
  await cashIn(page, /^Load ₺50,00$/, startCredits + 5000);
  await expect(page.getByTestId('wallet-total')).toHaveText(/₺/);
  await expect.poll(async () => parseMoney((await page.getByTestId('wallet-total').textContent()) ?? '')).toBe(walletBefore - 5000);

  for (let i = 0; i < 5; i++) await spinOnce(page);
  await expect(page.getByTestId('last-outcome')).toHaveText(/No win|Win ₺/);
  await expect(page.getByTestId('session-elapsed')).toHaveText(/\d+:\d\d/);
  await expect(page.getByTestId('session-net')).toHaveText(/₺/);
  await expectAccessible(page, 'game screen');
  await screenshot(page, 'game-desktop');

  // The meters now say what the machine holds; cash out must bring exactly that back.
  const onMachine = await credits(page);
  const net = parseMoney((await page.getByTestId('session-net').textContent()) ?? '');
  expect(onMachine).toBe(startCredits + 5000 + net);
  await cashOut(page);
  await expect.poll(() => balanceCents(request, token)).toBe(walletBefore - 5000 + onMachine + startCredits);
  await expect.poll(async () => parseMoney((await page.getByTestId('wallet-total').textContent()) ?? '')).toBe(walletBefore - 5000 + onMachine + startCredits);
  await leaveToLobby(page);

  // History: one closed session with the spins and both money moves, to the cent.
  await expect.poll(async () => (await sessionRows(request, token))[0]?.status).toBe('closed');
  const [session] = await sessionRows(request, token);
  expect(session!.machineId).toBe(MACHINE);
  expect(session!.spin_count).toBeGreaterThanOrEqual(5);
  expect(session!.cash_in).toBe(5000);
  expect(session!.cash_out).toBe(onMachine);
  const moves = (await transactionRows(request, token)).filter((row) => row.session_id === session!.id);
  expect(moves.find((row) => row.type === 'Cash In')?.amount).toBe(-5000);
  expect(moves.find((row) => row.type === 'Cash Out')?.amount).toBe(onMachine);

  await page.goto('/transactions');
  await expect(page.locator('tbody tr').filter({ hasText: 'Cash Out' }).first()).toContainText(new RegExp(`${(onMachine / 100).toFixed(2).replace('.', ',')}`));
  await page.goto('/slot-sessions');
  await expect(page.locator('tbody tr').first()).toContainText(String(session!.spin_count));
});
