/**
 * The discount rule is the server's (Settings.json DISCOUNT_MIN = 100, i.e. ₺100,00, with
 * DISCOUNT_BALANCE_CHECK on): the web app asks, then shows the answer.
 */
import { expect, test } from '../product/fixtures';
import { createPlayer, operator, signIn, useEnglish } from './helpers';

test.beforeEach(async ({ page }) => useEnglish(page));

test('a player under the minimum gets the discount credited, and the ledger stays balanced', async ({ page }) => {
  const player = createPlayer('disc');
  operator('deposit', player.username, '40.00');
  await signIn(page, player.username, player.password);
  await page.getByRole('button', { name: 'Discount' }).click();
  await expect(page.getByText('₺20,00 discounted successfully!')).toBeVisible();
  // The balance pushed by the server includes it: 40.00 + 20.00.
  await expect(page.getByRole('banner').getByText('₺60,00').first()).toBeVisible();
  const players = operator('list-players');
  expect(players).toMatch(new RegExp(`${player.username}\\b.*60\\.00`));
  // Exits non-zero when the ledger does not balance or a player's money does not follow the records.
  operator('audit');
});

test('a player above the minimum sees the configured minimum from the server', async ({ page }) => {
  const player = createPlayer('discx');
  operator('deposit', player.username, '250.00');
  await signIn(page, player.username, player.password);
  await page.getByRole('button', { name: 'Discount' }).click();
  await expect(page.getByText('Your balance must be below ₺100,00')).toBeVisible();
  expect(operator('list-players')).toMatch(new RegExp(`${player.username}\\b.*250\\.00`));
});
