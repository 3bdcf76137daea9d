import { expect, test } from '../product/fixtures';
import { expectAccessible, screenshot, signIn, useEnglish } from './helpers';

const VIEWPORTS = [
  { name: '360x640', width: 360, height: 640 },
  { name: '390x844', width: 390, height: 844 },
  { name: 'desktop', width: 1366, height: 850 },
] as const;

/**
 * Sixteen full axe scans take 2-6 s each on a loaded 2-core machine (up to 10 s far over its cores):
 * as one test they were the suite's longest (132-156 s), run by one worker while the other idled at
 * the end. In groups, each test signs in for itself and the workers share them.
 */
const PAGE_GROUPS: [string, RegExp | string][][] = [
  [
    ['/lobby', 'Choose a Slot Group'],
    ['/lobby/1/group', /.+/],
    ['/profile', 'Demo Player'],
    ['/slot-sessions', 'Game Sessions'],
  ],
  [
    ['/transactions', 'Transactions'],
    ['/documentation', 'Documentation'],
    ['/pages/coming-soon', 'Coming soon'],
    ['/ui/page-layouts/carded/left-sidebar-tabbed', 'Page layout: Carded, left sidebar, tabbed'],
  ],
  [
    ['/pages/search/modern', 'Modern search'],
    ['/pages/errors/error-404', '404'],
    ['/pages/errors/error-500', '500'],
    ['/game/1/machine', /Machine/],
  ],
];

test.describe('every page passes axe (no serious or critical violations)', () => {
  test.beforeEach(async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1024, height: 768 });
    await useEnglish(page);
  });

  test('the login page', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible();
    await expectAccessible(page, '/login');
  });

  for (const group of PAGE_GROUPS) {
    test(group.map(([path]) => path).join(', '), async ({ page }) => {
      await signIn(page);
      for (const [path, heading] of group) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
        await page.waitForLoadState('networkidle');
        await expectAccessible(page, path);
      }
      // Leave the game as a player does: a session left open by navigating away waits for the
      // player, and the lobby then opens the reconnect dialog over everything (seen on a loaded
      // machine, where the join completes before the axe scan ends).
      if (/\/game\//.test(new URL(page.url()).pathname)) {
        await page.getByRole('button', { name: 'Back to lobby' }).click();
        await expect(page).toHaveURL(/\/lobby$/, { timeout: 15_000 });
      }
    });
  }

  test('the navigation drawer and the panels (open panels and dialogs are pages too)', async ({ page }) => {
    await signIn(page);
    await page.goto('/lobby');
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await expectAccessible(page, 'navbar drawer');
    await page.keyboard.press('Escape');
    await page.goto('/lobby');
    for (const panel of ['Support chat', 'Quick panel', 'Settings']) {
      // At 1024 px the panel buttons sit in the toolbar (they move into the drawer only on phones).
      const button = page.getByRole('button', { name: panel }).first();
      await expect(button).toBeVisible();
      await button.click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectAccessible(page, panel);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
    }
  });
});

for (const viewport of VIEWPORTS) {
  test(`screenshots at ${viewport.name}`, async ({ page }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await useEnglish(page);
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible();
    await screenshot(page, `login-${viewport.name}`);
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Choose a Slot Group' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await screenshot(page, `lobby-${viewport.name}`);
    await page.goto('/profile');
    await expect(page.getByRole('heading', { name: 'Demo Player' })).toBeVisible();
    await screenshot(page, `profile-${viewport.name}`);
    await page.goto('/transactions');
    await expect(page.locator('tbody tr').first()).toBeVisible();
    await screenshot(page, `transactions-${viewport.name}`);
  });
}

test('navigation: the drawer lists the menu, marks the active item and closes on a click', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await useEnglish(page);
  await signIn(page);
  await page.getByRole('button', { name: 'Open navigation' }).click();
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
  const account = nav.getByRole('button', { name: 'Profile' });
  await expect(account).toHaveAttribute('aria-expanded', 'false');
  await account.click();
  await nav.getByRole('link', { name: 'Transactions' }).click();
  await expect(page).toHaveURL(/\/transactions$/);
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await expect(nav.getByRole('link', { name: 'Transactions' })).toHaveAttribute('aria-current', 'page');
  // The collapse holding the current page opens by itself.
  await expect(nav.getByRole('button', { name: 'Profile' })).toHaveAttribute('aria-expanded', 'true');
  await nav.getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL(/\/lobby$/);
  await expect(page.locator('.navbar--open')).toHaveCount(0);
});

test('toolbar: wallet toggle hides the balance; search finds pages and saves a shortcut', async ({ page }) => {
  await useEnglish(page);
  await signIn(page);
  const total = page.getByTestId('wallet-total');
  await expect(total).toContainText('₺');
  await page.getByRole('button', { name: 'Hide balance' }).click();
  await expect(total).not.toContainText('₺');
  await page.getByRole('button', { name: 'Show balance' }).click();
  await expect(total).toContainText('₺');

  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('combobox', { name: 'Search' }).fill('  TRANS ');
  await expect(page.getByRole('option', { name: /Transactions/ })).toBeVisible();
  const star = page.getByRole('button', { name: /Transactions to shortcuts|Transactions from shortcuts/ });
  if ((await star.getAttribute('aria-pressed')) === 'true') await star.click();
  await page.getByRole('button', { name: 'Add Transactions to shortcuts' }).click();
  await page.getByRole('combobox', { name: 'Search' }).fill('zzz');
  await expect(page.getByText('No results..')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Shortcuts' }).getByRole('link', { name: 'Transactions' })).toBeVisible();
});

test('chat panel: contacts, empty texts, no empty messages, Esc closes', async ({ page }) => {
  await useEnglish(page);
  await signIn(page);
  await page.getByRole('button', { name: 'Support chat' }).click();
  const panel = page.getByRole('dialog', { name: 'Support chat' });
  await expect(panel.getByText('Select a contact to start a conversation.')).toBeVisible();
  const contact = panel.getByRole('list', { name: 'Contacts' }).getByRole('button').first();
  await contact.click();
  await expect(panel.getByPlaceholder('Type your message')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Send' })).toBeDisabled();
  await panel.getByPlaceholder('Type your message').fill('   ');
  await expect(panel.getByRole('button', { name: 'Send' })).toBeDisabled();
  const text = `Hello from the e2e test ${Date.now()}`;
  await panel.getByPlaceholder('Type your message').fill(text);
  await panel.getByRole('button', { name: 'Send' }).click();
  await expect(panel.getByText(text)).toBeVisible();
  await expect(panel.getByPlaceholder('Type your message')).toHaveValue('');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
