import { expect, test } from '../product/fixtures';
import { createPlayer, signIn, useEnglish } from './helpers';

test.beforeEach(async ({ page }) => useEnglish(page));

test('the profile shows account and authentication details and the support block', async ({ page }) => {
  await signIn(page);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Demo Player' })).toBeVisible();
  const account = page.getByRole('region', { name: 'Account information' });
  await expect(account.getByText('demo@reel.live')).toBeVisible();
  const auth = page.getByRole('region', { name: 'Authentication details' });
  await expect(auth.getByText('Last logged-in IP')).toBeVisible();
  await expect(auth.getByText('Last password change')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Support' })).toBeVisible();
});

test('change password: wrong old password, then success, then sign in with the new one', async ({ page }) => {
  const player = createPlayer('pwd');
  await signIn(page, player.username, player.password);
  await page.goto('/profile');
  const form = page.getByRole('form', { name: 'Change password' });
  await form.getByLabel('Old password').fill('not-my-password');
  await form.getByLabel('New password', { exact: true }).fill('brand-new-1');
  await form.getByLabel('Confirm new password').fill('brand-new-1');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByText('Old password is wrong')).toBeVisible();

  await form.getByLabel('Old password').fill(player.password);
  await form.getByLabel('Confirm new password').fill('brand-new-2');
  await expect(form.getByText('Passwords do not match')).toBeVisible();
  await form.getByLabel('Confirm new password').fill('brand-new-1');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Your password has been changed')).toBeVisible();

  await page.goto('/logout');
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, player.username, 'brand-new-1');
});
