/**
 * HIDE_HEADER_BAR hides the toolbar, not what it holds (issue 25): at 360, 900 and 1280 px the
 * navigation, the chat, quick and settings panels and the discount and bonus buttons stay
 * reachable, from the navbar (a drawer with a menu button of its own below 1200 px, the rail above).
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../product/fixtures';
import { createPlayer, signIn, useEnglish } from './helpers';

async function hideHeaderBar(page: Page) {
  await page.route('**/Settings.json', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), HIDE_HEADER_BAR: true } });
  });
}

/** Each panel opens from `place` and closes again; the promotions are there too. */
async function expectEverythingReachable(page: Page, place: () => Promise<Locator>) {
  for (const [button, panel] of [
    ['Support chat', 'Support chat'],
    ['Quick panel', 'Quick panel'],
    ['Settings', 'Theme settings'],
  ] as const) {
    const from = await place();
    await from.getByRole('button', { name: button, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: panel });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(dialog).toHaveCount(0);
  }
  const from = await place();
  await expect(from.getByRole('button', { name: 'Discount', exact: true })).toBeVisible();
  await expect(from.getByRole('button', { name: 'Bonus', exact: true })).toBeVisible();
  // A claim works from there (the bonus pays and says so).
  await from.getByRole('button', { name: 'Bonus', exact: true }).click();
  await expect(page.getByText(/bonus added successfully!$/)).toBeVisible();
}

for (const width of [360, 900]) {
  test(`HIDE_HEADER_BAR at ${width} px: a menu button opens the drawer, which holds the panels and promotions`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await useEnglish(page);
    await hideHeaderBar(page);
    const player = createPlayer(`headerless${width}`);
    await signIn(page, player.username, player.password);
    await expect(page.locator('.toolbar')).toHaveCount(0);
    const menu = page.getByRole('button', { name: 'Open navigation' });
    // The page's heading is not under the menu button.
    const heading = page.getByRole('heading', { name: 'Choose a Slot Group' });
    expect((await heading.boundingBox())!.y).toBeGreaterThanOrEqual((await menu.boundingBox())!.y + (await menu.boundingBox())!.height);

    const drawer = page.locator('.navbar--drawer');
    const openDrawer = async () => {
      if (!(await drawer.evaluate((element) => element.classList.contains('navbar--open')))) await menu.click();
      await expect(drawer).toHaveClass(/navbar--open/);
      return drawer;
    };
    await expectEverythingReachable(page, openDrawer);
    // The drawer's navigation works as with the toolbar.
    await (await openDrawer()).getByRole('button', { name: 'Profile' }).click();
    await drawer.getByRole('link', { name: 'Transactions' }).click();
    await expect(page).toHaveURL(/\/transactions$/);
    await expect(drawer).not.toHaveClass(/navbar--open/);
  });
}

test('HIDE_HEADER_BAR at 1280 px: the rail holds the panels and promotions, folded or not', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await useEnglish(page);
  await hideHeaderBar(page);
  const player = createPlayer('headerless1280');
  await signIn(page, player.username, player.password);
  await expect(page.locator('.toolbar')).toHaveCount(0);
  const rail = page.getByTestId('navbar-rail');
  await expectEverythingReachable(page, async () => rail);

  // Folded, its panel buttons stay as icons; the promotions come back when it opens on hover.
  await rail.getByRole('button', { name: 'Fold navigation' }).click();
  await rail.getByRole('button', { name: 'Support chat', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Support chat' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(rail.getByRole('button', { name: 'Discount', exact: true })).toHaveCount(0);
  await page.mouse.move(900, 400);
  await rail.hover();
  await expect(rail.getByRole('button', { name: 'Discount', exact: true })).toBeVisible();
});

test('HIDE_HEADER_BAR in layout2 at 1280 px: the horizontal menu holds the panels and promotions', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await useEnglish(page);
  await hideHeaderBar(page);
  const player = createPlayer('headerlessh');
  await signIn(page, player.username, player.password);
  await page.getByTestId('navbar-rail').getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByRole('dialog', { name: 'Theme settings' }).getByRole('radio', { name: 'Horizontal' }).check();
  await page.keyboard.press('Escape');
  const menu = page.locator('.layout__hnav');
  await expect(menu.getByRole('link', { name: 'Home' })).toBeVisible();
  await expectEverythingReachable(page, async () => menu);
});
