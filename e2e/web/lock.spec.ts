import { expect, test } from '../product/fixtures';
import { signIn, useEnglish } from './helpers';

/** PIN_CHECK is off by default; this test turns it on the way an operator would, in Settings.json. */
test('after 60 s without activity the screen locks; the PIN from the server unlocks it; a reload keeps the lock', async ({ page }) => {
  await useEnglish(page);
  await page.route('**/Settings.json', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), PIN_CHECK: true } });
  });
  await page.clock.install();
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Choose a Slot Group' })).toBeVisible();

  // Stop the page's clock and move the pointer: the last activity is then exactly "now", however
  // long the steps above took on a loaded machine.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
  await page.mouse.move(20, 20);
  await page.mouse.move(40, 40);
  await page.clock.fastForward(59_000);
  await expect(page.getByRole('alertdialog', { name: 'LOCKED' })).toHaveCount(0);
  await page.clock.fastForward(2_000);
  const lock = page.getByRole('alertdialog', { name: 'LOCKED' });
  await expect(lock).toBeVisible();
  await page.clock.resume();
  await expect(lock.getByText('Your screen is protected due to inaction')).toBeVisible();

  await page.reload();
  await expect(page.getByRole('alertdialog', { name: 'LOCKED' })).toBeVisible();

  await page.getByLabel('PIN').fill('0000');
  await page.getByRole('button', { name: 'Unlock' }).click();
  await expect(page.getByText('PIN is wrong')).toBeVisible();
  await page.getByLabel('PIN').fill('1234');
  await page.getByRole('button', { name: 'Unlock' }).click();
  await expect(page.getByRole('alertdialog', { name: 'LOCKED' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Choose a Slot Group' })).toBeVisible();
});

test('the lock screen logout button signs out', async ({ page }) => {
  await useEnglish(page);
  await page.route('**/Settings.json', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), PIN_CHECK: true } });
  });
  await page.clock.install();
  await signIn(page);
  await page.clock.fastForward(61_000);
  await page.getByRole('alertdialog', { name: 'LOCKED' }).getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('lock'))).toBeNull();
});
