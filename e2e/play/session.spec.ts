import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../product/fixtures';
import { apiToken, createPlayer, operator, signIn, useEnglish } from '../web/helpers';
import { BONUS_ROUND_TIMEOUT_MS, auth, balanceCents, cashIn, credits, holdMachine, leaveToLobby, machineGroup, parseMoney, spinOnce, waitFirstFrame } from './play-helpers';

/** Each test has its own machine and player, so a failure in one never holds another's cabinet. */
const MACHINES = { quit: 2, offline: 3, grace: 5, held: 6, dialog: 9 } as const;

async function newPlayer(prefix: string) {
  const player = createPlayer(prefix);
  operator('deposit', player.username, '100.00');
  return player;
}

/** A fresh player signed in on the game screen of the given machine, with its video playing. */
async function playerOnMachine(page: Page, request: APIRequestContext, prefix: string, machineId: number) {
  const player = await newPlayer(prefix);
  const token = await apiToken(request, player.username, player.password);
  const { machine } = await machineGroup(request, token, machineId);
  await signIn(page, player.username, player.password);
  await page.goto(`/game/${machine.id}/${encodeURIComponent(machine.name)}`);
  await waitFirstFrame(page);
  return { player, token, machine };
}

async function openSession(request: Parameters<typeof apiToken>[0], token: string) {
  return (await (await request.get('/api/player/session', auth(token))).json()) as { show: boolean; id: number | null };
}

test.beforeEach(async ({ page }) => useEnglish(page));

test('a second tab of the same player takes the machine over; the first gets QUIT_REQUEST and returns to the lobby', async ({ page, context, request }) => {
  const { player, token, machine } = await playerOnMachine(page, request, 'quit', MACHINES.quit);

  // The second tab signs in with its own token: re-validating the first tab's token would revoke it
  // and sign that tab out before the game channel could tell it anything.
  const second = await context.newPage();
  const secondToken = await apiToken(request, player.username, player.password);
  await second.goto(`/game/${machine.id}/${encodeURIComponent(machine.name)}?access_token=${encodeURIComponent(secondToken)}`);
  await expect(page.getByText('You were removed from the machine because it was opened in another window.')).toBeVisible();
  await expect(page).toHaveURL(/\/lobby$/);
  await waitFirstFrame(second);
  await leaveToLobby(second);
  await expect.poll(async () => (await openSession(request, token)).show).toBe(false);
});

test('offline mid-session: back online the reconnect dialog appears and Continue resumes with the same credits', async ({ page, context, request }) => {
  test.setTimeout(90_000 + BONUS_ROUND_TIMEOUT_MS);
  const { token, machine } = await playerOnMachine(page, request, 'offline', MACHINES.offline);
  await cashIn(page, /^Load ₺5,00$/, 500);
  await spinOnce(page);
  const before = await credits(page);

  await context.setOffline(true);
  await expect(page.getByText('You are offline. Your credits stay safe on the machine.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Spin', exact: true })).toBeDisabled();
  await page.waitForTimeout(4500);
  await context.setOffline(false);

  const dialog = page.getByRole('alertdialog', { name: 'You have an open session' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(machine.name);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog).toBeHidden();
  await waitFirstFrame(page);
  await expect.poll(() => credits(page)).toBe(before);
  await expect(page.getByRole('button', { name: 'Spin', exact: true })).toBeEnabled();
  await leaveToLobby(page);
  await expect.poll(async () => (await openSession(request, token)).show).toBe(false);
});

test('offline past the grace period: the server cashes out, the money is back in the wallet', async ({ page, context, request }) => {
  test.setTimeout(120_000 + BONUS_ROUND_TIMEOUT_MS);
  const { token } = await playerOnMachine(page, request, 'grace', MACHINES.grace);
  const walletBefore = await balanceCents(request, token);
  await cashIn(page, /^Load ₺50,00$/, 5000);
  await spinOnce(page);
  const onMachine = await credits(page);
  expect(await balanceCents(request, token)).toBe(walletBefore - 5000);

  await context.setOffline(true);
  // SESSION_GRACE_MS is 12 s in the e2e server; the server closes the session by itself.
  await expect.poll(async () => (await openSession(request, token)).show, { timeout: 60_000, intervals: [1000] }).toBe(false);
  expect(await balanceCents(request, token)).toBe(walletBefore - 5000 + onMachine);
  await context.setOffline(false);
  await expect(page.getByText('Your session ended while you were away. The credits are back in your wallet.')).toBeVisible();
  await expect(page).toHaveURL(/\/lobby$/);
  await expect.poll(async () => parseMoney((await page.getByTestId('wallet-total').textContent()) ?? '')).toBe(walletBefore - 5000 + onMachine);
});

test('joining a machine another player holds fails with the coded error and returns to the lobby', async ({ page, request, baseURL }) => {
  const alice = await holdMachine(baseURL!, request, 'alice', 'alice1234', MACHINES.held);
  try {
    expect(alice.joined.event).toBe('joined');
    const player = await newPlayer('held');
    const token = await apiToken(request, player.username, player.password);
    const { machine } = await machineGroup(request, token, MACHINES.held);
    await signIn(page, player.username, player.password);
    await page.goto(`/game/${machine.id}/${encodeURIComponent(machine.name)}`);
    await expect(page.getByRole('alert').filter({ hasText: 'This machine is being played by another player' })).toBeVisible();
    await expect(page).toHaveURL(/\/lobby$/);
    expect((await openSession(request, token)).show).toBe(false);
  } finally {
    await alice.release();
  }
});

test('the reconnect dialog from the lobby: Kick ends the other tab\'s game, Cashout brings the credits back to the wallet', async ({ page, context, request }) => {
  test.setTimeout(90_000);
  const { player, token, machine } = await playerOnMachine(page, request, 'dialog', MACHINES.dialog);
  await cashIn(page, /^Load ₺5,00$/, 500);
  const walletAfterCashIn = await balanceCents(request, token);

  // Another tab of the same player opens the lobby: the machine is being played (by the first tab).
  const lobby = await context.newPage();
  const lobbyToken = await apiToken(request, player.username, player.password);
  await lobby.goto(`/lobby?access_token=${encodeURIComponent(lobbyToken)}`);
  const dialog = lobby.getByRole('alertdialog', { name: 'You have an open session' });
  await expect(dialog).toContainText(`${machine.name} is being played. If it is not you, please contact support.`);
  await dialog.getByRole('button', { name: 'Kick the player' }).click();
  // The first tab is told and leaves; the session and its credits stay, waiting for the player.
  await expect(page.getByText('You were removed from the machine because it was opened in another window.')).toBeVisible();
  await expect(page).toHaveURL(/\/lobby$/);
  await expect.poll(async () => (await openSession(request, token)).show).toBe(true);

  // Back in the lobby the dialog offers the waiting machine; Cashout joins it and cashes out.
  await lobby.reload();
  await expect(dialog).toContainText(`${machine.name} is waiting for you. Do you want to reconnect?`);
  await dialog.getByRole('button', { name: 'Cashout' }).click();
  await expect(lobby).toHaveURL(new RegExp(`/game/${machine.id}/`));
  await expect.poll(() => credits(lobby), { timeout: 15_000 }).toBe(0);
  await expect.poll(() => balanceCents(request, token)).toBe(walletAfterCashIn + 500);
  await leaveToLobby(lobby);
  await expect.poll(async () => (await openSession(request, token)).show).toBe(false);
});
