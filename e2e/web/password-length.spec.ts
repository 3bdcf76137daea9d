/**
 * One change-password rule (NEW_PASSWORD_MIN_LENGTH in packages/protocol, 8): the profile form holds
 * a shorter new password back with the rule's own number, the server refuses it too (40101), and
 * the login form keeps the spec's minimum of 4.
 */
import { NEW_PASSWORD_MIN_LENGTH } from '@reel/protocol/client';
import { expect, test } from '../product/fixtures';
import { apiToken, createPlayer, signIn, useEnglish } from './helpers';

test.beforeEach(async ({ page }) => useEnglish(page));

test('the profile form and the server share the new-password minimum', async ({ page, request }) => {
  expect(NEW_PASSWORD_MIN_LENGTH).toBe(8);
  const player = createPlayer('pwlen');
  await signIn(page, player.username, player.password);
  await page.goto('/profile');
  const form = page.getByRole('form', { name: 'Change password' });
  const short = 'x'.repeat(NEW_PASSWORD_MIN_LENGTH - 1);
  await form.getByLabel('Old password').fill(player.password);
  await form.getByLabel('New password', { exact: true }).fill(short);
  await form.getByLabel('Confirm new password').fill(short);
  await expect(form.getByText(`Min character length is ${NEW_PASSWORD_MIN_LENGTH}`)).toBeVisible();
  await expect(form.getByRole('button', { name: 'Change password' })).toBeDisabled();

  // The server applies the same number.
  const token = await apiToken(request, player.username, player.password);
  const refused = await request.post('/api/player/password', {
    headers: { authorization: `Bearer ${token}` },
    data: { old_password: player.password, new_password: short },
  });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).code).toBe(40101);

  const enough = 'y'.repeat(NEW_PASSWORD_MIN_LENGTH);
  await form.getByLabel('New password', { exact: true }).fill(enough);
  await form.getByLabel('Confirm new password').fill(enough);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Your password has been changed')).toBeVisible();
});

test('the login form keeps the minimum of 4', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email or username').fill('abc');
  await page.getByLabel('Password', { exact: true }).fill('abcd');
  await expect(page.getByText('Min character length is 4')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Login' })).toBeDisabled();
});
