/**
 * The operator console (issue 27) in Chromium against the real product: staff sign in at /admin
 * and see every machine live, act on one and see the push; a player's token cannot use it.
 */
import { Code } from '@reel/protocol';
import { apiToken, expectAccessible, screenshot } from '../web/helpers';
import { consoleInEnglish, STAFF } from './console-helpers';
import { expect, test } from './fixtures';

test('staff sign in at /admin and see the floor live; an action comes back as a push; live video and a player page open', async ({ page }) => {
  await consoleInEnglish(page);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Operator sign-in' })).toBeVisible();
  await expectAccessible(page, '/admin sign-in');
  await page.getByLabel('Username').fill(STAFF.username);
  await page.getByLabel('Password').fill(STAFF.password);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page).toHaveURL(/\/admin\/floor$/);
  await expect(page.getByRole('heading', { name: 'Floor' })).toBeVisible();
  await expect(page.getByText('staff1 (staff)')).toBeVisible();
  // The staff channel is open: the floor is pushed, not polled.
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
  const rows = page.locator('tbody tr[data-machine]');
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeGreaterThan(1);
  // Every demo cabinet runs beside the product: connected, its encoder running.
  await expect(rows.filter({ hasText: /\bconnected/ }).first()).toBeVisible();

  await screenshot(page, 'admin-floor');
  await expectAccessible(page, '/admin/floor');

  // Out of service and back, each with a reason: the row changes by the push that follows.
  const first = rows.first();
  const name = (await first.locator('th').first().innerText()).split('\n')[0]!.trim();
  await first.getByRole('button', { name: `Out of service: ${name}` }).click();
  await page.getByRole('dialog').getByLabel('Reason').fill('e2e: glass cleaning');
  await page.getByRole('dialog').getByRole('button', { name: 'Out of service' }).click();
  await expect(first.getByText('out of service', { exact: true })).toBeVisible();
  await first.getByRole('button', { name: `Back in service: ${name}` }).click();
  await page.getByRole('dialog').getByLabel('Reason').fill('e2e: done');
  await page.getByRole('dialog').getByRole('button', { name: 'Back in service' }).click();
  await expect(first.getByRole('button', { name: `Out of service: ${name}` })).toBeVisible();

  // Live video of the machine on a staff grant: frames arrive.
  await first.getByRole('button', { name: `Live video: ${name}` }).click();
  const video = page.getByRole('dialog').locator('video');
  await expect(page.getByRole('dialog').getByText('Video: live')).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.videoWidth), { timeout: 20_000 }).toBeGreaterThan(0);
  await screenshot(page, 'admin-video');
  await page.getByRole('button', { name: 'Close' }).click();

  // The player page of the demo player, from the search.
  await page.getByRole('link', { name: 'Players' }).click();
  await page.getByRole('link', { name: 'demo', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Wallet' })).toBeVisible();
  await screenshot(page, 'admin-player');
});

test("a player's token cannot use the console", async ({ page, request }) => {
  const playerToken = await apiToken(request);
  // The API refuses it with the catalogue's code, whatever the page does.
  for (const path of ['/api/admin/floor', '/api/admin/players', '/api/admin/auth/me']) {
    const answer = await request.get(path, { headers: { authorization: `Bearer ${playerToken}` } });
    expect(answer.status(), path).toBe(403);
    expect((await answer.json()).code, path).toBe(Code.RoleNotAllowed);
  }

  // Planted as the console's token, it is asked who it is, refused, and the sign-in page stays.
  await consoleInEnglish(page);
  await page.addInitScript((token) => window.sessionStorage.setItem('reel_operator_token', token), playerToken);
  await page.goto('/admin/floor');
  await expect(page.getByRole('heading', { name: 'Operator sign-in' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Floor' })).toHaveCount(0);

  // The player's own password does not open it either.
  await page.getByLabel('Username').fill('demo');
  await page.getByLabel('Password').fill('demo1234');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Operator sign-in' })).toBeVisible();
});
