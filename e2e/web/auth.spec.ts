import { expect, test } from '../product/fixtures';
import { apiToken, createPlayer, operator, signIn, useEnglish } from './helpers';

test.beforeEach(async ({ page }) => useEnglish(page));

test('sign in with the demo account shows the lobby, balance and name', async ({ page }) => {
  // Below 1200 px every layout opens the navbar as a drawer from the toolbar's menu button.
  await page.setViewportSize({ width: 1024, height: 768 });
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Choose a Slot Group' })).toBeVisible();
  await expect(page.getByTestId('wallet-total')).toHaveText(/₺[\d.]+,\d\d/);
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await expect(page.getByText('current balance')).toBeVisible();
  await expect(page.getByText('@demo')).toBeVisible();
});

test('keyboard-only sign-in', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email or username').focus();
  await page.keyboard.type('demo');
  await page.keyboard.press('Tab');
  await page.keyboard.type('demo1234');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/lobby$/);
});

test('the submit button waits for valid input: both fields, at least 4 characters', async ({ page }) => {
  await page.goto('/login');
  const submit = page.getByRole('button', { name: 'Login' });
  await expect(submit).toBeDisabled();
  await page.getByLabel('Email or username').fill('abc');
  await expect(page.getByText('Min character length is 4')).toBeVisible();
  await page.getByLabel('Email or username').fill('abcd');
  await page.getByLabel('Password', { exact: true }).fill('abcd');
  await expect(submit).toBeEnabled();
});

test('a wrong password shows the remaining tries, then the account is blocked', async ({ page }) => {
  const player = createPlayer('blk');
  await page.goto('/login');
  await page.getByLabel('Email or username').fill(player.username);
  await page.getByLabel('Password', { exact: true }).fill('wrong-password');
  await page.getByRole('button', { name: 'Login' }).click();
  const message = page.getByText(/Incorrect username or password; remaining rights \d+, blocked for \d+ minutes/);
  await expect(message).toBeVisible();
  const left = Number((await message.textContent())!.match(/remaining rights (\d+)/)![1]);
  // Use up the remaining tries; the next attempt meets the block.
  for (let attempt = 0; attempt <= left; attempt++) {
    await page.getByLabel('Password', { exact: true }).fill(`wrong-password-${attempt}`);
    await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/api/login')),
      page.getByRole('button', { name: 'Login' }).click(),
    ]);
  }
  await expect(page.getByText('Account has been protected due to too many false attempts')).toBeVisible();
  // Even the right password is refused while blocked.
  await page.getByLabel('Password', { exact: true }).fill(player.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText('Account has been protected due to too many false attempts')).toBeVisible();
});

test('a banned player is told so', async ({ page }) => {
  const player = createPlayer('ban');
  operator('ban', player.username);
  await page.goto('/login');
  await page.getByLabel('Email or username').fill(player.username);
  await page.getByLabel('Password', { exact: true }).fill(player.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'You have been banned' })).toBeVisible();
});

test('a token in the query string signs in and leaves the address bar', async ({ page, request }) => {
  const token = await apiToken(request, 'alice', 'alice1234');
  await page.goto(`/lobby?access_token=${encodeURIComponent(token)}`);
  await expect(page.getByRole('heading', { name: 'Choose a Slot Group' })).toBeVisible();
  expect(page.url()).not.toContain('access_token');
  expect(await page.evaluate(() => localStorage.getItem('jwt_access_token'))).toBeTruthy();
});

test('an invalid stored token logs out with "Invalid access_token"', async ({ page }) => {
  await page.goto('/login');
  await page.evaluate(() => {
    const claims = btoa(JSON.stringify({ id: 1, exp: Math.floor(Date.now() / 1000) + 3600 })).replace(/=+$/, '');
    localStorage.setItem('jwt_access_token', `x.${claims}.y`);
  });
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Invalid access_token').first()).toBeVisible();
});

test('an expired stored token logs out with "access_token expired"', async ({ page }) => {
  await page.goto('/login');
  await page.evaluate(() => {
    const claims = btoa(JSON.stringify({ id: 1, exp: Math.floor(Date.now() / 1000) - 60 })).replace(/=+$/, '');
    localStorage.setItem('jwt_access_token', `x.${claims}.y`);
  });
  await page.goto('/lobby');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('access_token expired').first()).toBeVisible();
});

test('a guest is sent to /login and lands on the page they wanted after signing in', async ({ page }) => {
  await page.goto('/transactions');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email or username').fill('demo');
  await page.getByLabel('Password', { exact: true }).fill('demo1234');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/transactions$/);
});

test('logout shows "Logging out.." and returns to the login page; the token stops working', async ({ page, request }) => {
  await signIn(page);
  const token = await page.evaluate(() => localStorage.getItem('jwt_access_token'));
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('jwt_access_token'))).toBeNull();
  const balance = await request.get('/api/player/balance', { headers: { authorization: `Bearer ${token}` } });
  expect(balance.status()).toBe(401);
});

test('the logout page shows its message', async ({ page }) => {
  await signIn(page);
  await page.route('**/api/player/logout', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.goto('/logout');
  await expect(page.getByText('Logging out..')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('unknown paths show the 404 page', async ({ page }) => {
  await signIn(page);
  await page.goto('/this/does/not/exist');
  await expect(page).toHaveURL(/\/pages\/errors\/error-404$/);
  await expect(page.getByText('Sorry but we could not find the page you are looking for')).toBeVisible();
});
