/**
 * layout3, the main layout, on desktop (spec sections 2, 4 and 9): the navbar folds to 64 px and
 * slides in on hover after 150 ms, the stored folded setting survives a reload, the admin bar
 * appears when enabled, and the boxed container is 1280 / 1120 px wide.
 */
import { HOVER_MENU_DELAY_MS, Layout } from '@reel/protocol';
import type { Page } from '@playwright/test';
import { expect, test } from '../product/fixtures';
import { createPlayer, signIn, useEnglish } from './helpers';

const width = async (page: Page, selector: string) => (await page.locator(selector).boundingBox())!.width;

async function openSettings(page: Page) {
  await page.getByRole('button', { name: 'Settings' }).first().click();
  return page.getByRole('dialog', { name: 'Theme settings' });
}

test('layout3 on desktop: fold, hover to slide in, the stored fold survives a reload', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 850 });
  await useEnglish(page);
  const player = createPlayer('layout');
  await signIn(page, player.username, player.password);
  const navbar = page.getByTestId('navbar-rail');
  await expect(navbar).toBeVisible();
  expect(await width(page, '[data-testid="navbar-rail"]')).toBe(Layout.navbarWidth);

  await navbar.getByRole('button', { name: 'Fold navigation' }).click();
  await expect.poll(() => width(page, '[data-testid="navbar-rail"]')).toBe(Layout.navbarFoldedWidth);
  const contentX = (await page.locator('#main').boundingBox())!.x;
  await page.mouse.move(900, 400);

  // Hover: the navbar opens no sooner than the delay after the pointer enters (measured in the
  // page, so a slow test machine cannot blur it), over the page, which does not move.
  await page.evaluate(() => {
    const rail = document.querySelector('[data-testid="navbar-rail"]')!;
    const w = window as unknown as { hover: { enteredAt?: number; openedAt?: number } };
    w.hover = {};
    rail.addEventListener('mouseenter', () => (w.hover.enteredAt ??= performance.now()));
    new MutationObserver(() => {
      if (rail.classList.contains('navbar--folded-open')) w.hover.openedAt ??= performance.now();
    }).observe(rail, { attributes: true, attributeFilter: ['class'] });
  });
  await page.mouse.move(Layout.navbarFoldedWidth / 2, 400);
  await expect.poll(() => width(page, '[data-testid="navbar-rail"]')).toBe(Layout.navbarWidth);
  await expect(navbar.getByRole('link', { name: 'Logout' })).toBeVisible();
  const hover = await page.evaluate(() => (window as unknown as { hover: { enteredAt: number; openedAt: number } }).hover);
  expect(hover.openedAt - hover.enteredAt).toBeGreaterThanOrEqual(HOVER_MENU_DELAY_MS - 1);
  expect((await page.locator('#main').boundingBox())!.x).toBe(contentX);
  await page.mouse.move(900, 400);
  await expect.poll(() => width(page, '[data-testid="navbar-rail"]')).toBe(Layout.navbarFoldedWidth);

  // The folded flag is a stored setting (saved to the server for a player).
  await page.reload();
  await expect(navbar).toBeVisible();
  await expect.poll(() => width(page, '[data-testid="navbar-rail"]')).toBe(Layout.navbarFoldedWidth);
  await expect(navbar.getByRole('button', { name: 'Unfold navigation' })).toBeVisible();
});

test('layout3: the admin bar appears when enabled; boxed is 1120 px wide under 1440 px and 1280 px above', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 850 });
  await useEnglish(page);
  const player = createPlayer('boxed');
  await signIn(page, player.username, player.password);
  await expect(page.getByTestId('admin-bar')).toHaveCount(0);

  const settings = await openSettings(page);
  await settings.getByRole('switch', { name: 'Admin bar' }).click();
  await settings.getByRole('radio', { name: 'Boxed' }).check();
  await page.keyboard.press('Escape');

  const bar = page.getByRole('complementary', { name: 'Admin bar' });
  await expect(bar).toBeVisible();
  await expect(bar).toContainText(`Signed in as ${player.username} (user)`);
  await expect(bar).toContainText('UI v2.4.5');
  await expect.poll(() => width(page, '.layout')).toBe(Layout.boxedWidths[1]);
  await page.setViewportSize({ width: 1600, height: 900 });
  await expect.poll(() => width(page, '.layout')).toBe(Layout.boxedWidths[0]);

  await page.reload();
  await expect(page.getByTestId('admin-bar')).toBeVisible();
  await expect.poll(() => width(page, '.layout')).toBe(Layout.boxedWidths[0]);
});
