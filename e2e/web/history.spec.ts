import fs from 'node:fs';
import { expect, test } from '../product/fixtures';
import { createPlayer, operator, signIn, useEnglish } from './helpers';

test.beforeEach(async ({ page }) => useEnglish(page));

test('transactions: columns, items per page, load more, search and CSV download', async ({ page }) => {
  const player = createPlayer('hist');
  for (let index = 1; index <= 12; index++) operator('deposit', player.username, `${index}.00`);
  operator('withdraw', player.username, '1.00');
  await signIn(page, player.username, player.password);
  await page.goto('/transactions');
  await expect(page.getByRole('heading', { name: 'Transactions' })).toBeVisible();
  for (const header of ['Operation date', 'Played session duration', 'From', 'Amount', 'Type', 'Machine', 'Start', 'End', 'Spin count', 'Free spin count', 'Tag']) {
    await expect(page.getByRole('columnheader', { name: header, exact: true })).toBeAttached();
  }
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(10);
  await expect(page.getByText('Records shown: 10')).toBeVisible();
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(rows).toHaveCount(13);
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);

  await page.getByLabel('Items per page').selectOption('25');
  await expect(rows).toHaveCount(13);

  // Search is trimmed and case-insensitive.
  await page.getByRole('searchbox', { name: 'Search' }).fill('  wITHdraw ');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Withdraw');

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe('transactions.csv');
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  const lines = csv.trim().split(/\r?\n/);
  expect(lines.length).toBe(2);
  expect(lines[1]).toMatch(/withdraw/i);
});

test('slot sessions: the table, its columns and an empty search', async ({ page }) => {
  await signIn(page);
  await page.goto('/slot-sessions');
  await expect(page.getByRole('heading', { name: 'Game Sessions' })).toBeVisible();
  for (const header of ['Machine', 'Start', 'End', 'Played session duration', 'Spin count', 'Free spin count']) {
    await expect(page.getByRole('columnheader', { name: header, exact: true })).toBeAttached();
  }
  await page.getByRole('searchbox', { name: 'Search' }).fill('zz-no-such-machine-zz');
  await expect(page.getByText('No records found')).toBeVisible();
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download' }).click();
  expect((await downloadPromise).suggestedFilename()).toBe('slot-sessions.csv');
});
