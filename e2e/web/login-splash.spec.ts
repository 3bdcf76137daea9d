/**
 * SPLASH_SCREEN (issue 25): the operator's switch offers the login page's splash, and the player's
 * choice changes the page at every width: the brand scene fills the page, the reels stand above
 * the sign-in card. Without it, phones show only the form and wide screens the scene beside it.
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../product/fixtures';
import { screenshot, useEnglish } from './helpers';

async function withSplashSetting(page: Page) {
  await page.route('**/Settings.json', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), SPLASH_SCREEN: true } });
  });
}

const box = async (page: Page, selector: string) => (await page.locator(selector).boundingBox())!;

for (const width of [360, 900, 1280]) {
  test(`the splash changes the login page at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await useEnglish(page);
    await withSplashSetting(page);
    await page.goto('/login');
    const splash = page.getByRole('switch', { name: 'Splash screen' });
    await expect(splash).not.toBeChecked();
    const card = await box(page, '.login__card');
    const heroBefore = await page.locator('.login__hero').isVisible();
    expect(heroBefore).toBe(width >= 960);

    await splash.click();
    await expect(page.locator('.login')).toHaveClass(/login--splash/);
    // The reels stand above the card, across the whole width, in the brand scene.
    const hero = await box(page, '.login__hero');
    expect(hero.width).toBe(width);
    const cardAfter = await box(page, '.login__card');
    expect(cardAfter.y).toBeGreaterThanOrEqual(hero.y + hero.height);
    expect(cardAfter.y).toBeGreaterThan(card.y);
    const background = await page.locator('.login').evaluate((element) => getComputedStyle(element).backgroundImage);
    expect(background).toContain('gradient');
    // Nothing sticks out sideways on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    await screenshot(page, `login-splash-${width}`);
    // The choice is the player's and stays.
    await page.reload();
    await expect(page.locator('.login')).toHaveClass(/login--splash/);
  });
}
