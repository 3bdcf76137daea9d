/** Code 10 for a forged token, seen in the browser; the chat panel's own status through /api/chat/user/data. */
import { expect, test } from '../product/fixtures';
import { apiToken, createPlayer, signIn, useEnglish } from './helpers';

test.beforeEach(async ({ page }) => useEnglish(page));

test("a stored token with a forged signature signs out with \"Signature Doesn't Verified\"", async ({ page, request }) => {
  const player = createPlayer('forge');
  const genuine = await apiToken(request, player.username, player.password);
  const forged = `${genuine.slice(0, -4)}${genuine.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
  await page.goto('/login');
  await page.evaluate((token) => window.localStorage.setItem('jwt_access_token', token), forged);
  await page.goto('/lobby');
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText("Signature Doesn't Verified").first()).toBeVisible();
});

test("the chat panel sets the player's own status on the server", async ({ page, request }) => {
  const player = createPlayer('chat');
  await signIn(page, player.username, player.password);
  await page.getByRole('button', { name: 'Support chat' }).click();
  const panel = page.getByRole('dialog', { name: 'Support chat' });
  const status = panel.getByLabel('My status');
  await expect(status).toHaveValue('online');
  const saved = page.waitForResponse((response) => response.url().endsWith('/api/chat/user/data') && response.request().method() === 'POST');
  await status.selectOption({ label: 'Away' });
  expect((await saved).ok()).toBe(true);
  const token = await apiToken(request, player.username, player.password);
  const user = await (await request.get('/api/chat/user', { headers: { authorization: `Bearer ${token}` } })).json();
  expect(user.status).toBe('away');
  // Shown from the server after a reload too.
  await page.reload();
  await page.getByRole('button', { name: 'Support chat' }).click();
  await expect(page.getByRole('dialog', { name: 'Support chat' }).getByLabel('My status')).toHaveValue('away');
});
