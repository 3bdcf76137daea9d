/**
 * Every demo account the README documents signs in through the login form (spec section 5: both
 * fields need at least 4 characters). The accounts are read from the README's table, so a renamed
 * or added account is tested as documented.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '../product/fixtures';
import { REPO_ROOT, signIn, useEnglish } from './helpers';

function readmeDemoAccounts(): { username: string; password: string }[] {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  // The players' table is the first one of the section (the operator accounts' table follows it,
  // and operators sign in at /admin, not through this form).
  const section = readme.split('## Demo accounts')[1]?.split('\n## ')[0] ?? '';
  const playersTable = section.trim().split('\n\n')[0] ?? '';
  // Rows like: | `demo` (demo@reel.live) | `demo1234` | 1234 | 1,000.00 TRY |
  return [...playersTable.matchAll(/^\| `([^`]+)`[^|]*\| `([^`]+)` \|/gm)].map((m) => ({ username: m[1]!, password: m[2]! }));
}

test.beforeEach(async ({ page }) => useEnglish(page));

test('every README demo account signs in through the login form', async ({ page }) => {
  const accounts = readmeDemoAccounts();
  expect(accounts.map((a) => a.username)).toEqual(expect.arrayContaining(['demo', 'alice']));
  expect(accounts.length).toBeGreaterThanOrEqual(3);
  for (const account of accounts) {
    await test.step(account.username, async () => {
      await signIn(page, account.username, account.password);
      await expect(page.getByRole('heading', { name: 'Choose a Slot Group' })).toBeVisible();
      await page.goto('/logout');
      await expect(page).toHaveURL(/\/login$/);
    });
  }
});
