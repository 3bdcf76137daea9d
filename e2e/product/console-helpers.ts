/** Signing in to the operator console (/admin) in Chromium, in English. */
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** The seeded demo operators (apps/server/src/demo/seed.ts DEMO_OPERATORS). */
export const STAFF = { username: 'staff1', password: 'staff1234' };
export const ADMIN = { username: 'admin', password: 'admin1234' };

export async function consoleInEnglish(page: Page) {
  await page.addInitScript(() => window.localStorage.setItem('i18nextLng', 'en'));
}

/** From the sign-in page at /admin to the floor, as `who`. */
export async function signInToConsole(page: Page, who: { username: string; password: string }) {
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Operator sign-in' })).toBeVisible();
  await page.getByLabel('Username').fill(who.username);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/admin\/floor$/);
}
