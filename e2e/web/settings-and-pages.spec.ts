/**
 * Runtime settings a player notices and the real content of the footer and quick panel:
 * UPDATE_LOBBY refreshes the open lobby, language options carry their flags, the five footer pages
 * say what the product really does, the quick panel shows only real events and toggles.
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../product/fixtures';
import { signIn, useEnglish } from './helpers';

async function withSettings(page: Page, override: Record<string, unknown>) {
  await page.route('**/Settings.json', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), ...override } });
  });
}

declare global {
  interface Window {
    __lobbyLoads: number;
  }
}

test('UPDATE_LOBBY: the open lobby reloads itself every UPDATE_LOBBY seconds beside the pushes', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await useEnglish(page);
  await withSettings(page, { UPDATE_LOBBY: 1 });
  // Counted where the app asks, at the moment it asks; time is the page's own (fake) clock, so
  // "three periods went by" is an event of the test, not a sleep.
  await page.addInitScript(() => {
    window.__lobbyLoads = 0;
    const fetch = window.fetch.bind(window);
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      if (new URL(url, window.location.href).pathname === '/api/machine/all') window.__lobbyLoads += 1;
      return fetch(input, init);
    };
  });
  await page.clock.install();
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Choose a Slot Group' })).toBeVisible();
  const loads = () => page.evaluate(() => window.__lobbyLoads);
  const first = await loads();
  // One period at a time, each load seen before the next period: a reload still in flight when the
  // next period comes is not asked twice (the query is shared), so three periods run in one instant
  // of the fake clock would count as one or two.
  for (let period = 1; period <= 3; period++) {
    await page.clock.runFor(1_000);
    await expect.poll(loads).toBeGreaterThanOrEqual(first + period);
  }

  // Leaving the lobby inside the app (no page load) stops it: three more periods bring no load.
  await page.getByRole('button', { name: 'Open navigation' }).click();
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await nav.getByRole('button', { name: 'Profile' }).click();
  await nav.getByRole('link', { name: 'Transactions' }).click();
  await expect(page).toHaveURL(/\/transactions$/);
  // One more load could follow the navigation within half a period (seen in CI, once, started by
  // the query layer while the pointer still rested on the menu: not a periodic refresh); it is let
  // come, with the pointer moved off the menu, before the count that must then stand still.
  await page.mouse.move(1000, 740);
  await page.clock.runFor(500);
  const after = await loads();
  await page.clock.runFor(3_000);
  expect(await loads()).toBe(after);
});

test('language options carry a flag: TR, EN and AR on the login page, TR and EN in the toolbar', async ({ page }) => {
  await useEnglish(page);
  await page.goto('/login');
  const login = page.getByRole('group', { name: 'Language' });
  for (const [lang, flag] of [
    ['tr', 'tr'],
    ['en', 'gb'],
    ['ar', 'sa'],
  ] as const) {
    await expect(login.locator(`button[lang="${lang}"] svg[data-flag="${flag}"]`)).toBeVisible();
  }
  await signIn(page);
  const toolbar = page.locator('.toolbar').getByRole('group', { name: 'Language' });
  await expect(toolbar.locator('button[lang="tr"] svg[data-flag="tr"]')).toBeVisible();
  await expect(toolbar.locator('button[lang="en"] svg[data-flag="gb"]')).toBeVisible();
});

test('the footer pages are real: rules, player protection, terms, privacy and password reset say what the product does', async ({ page }) => {
  await useEnglish(page);
  await withSettings(page, { EXTERNAL_INFO: true });
  await signIn(page);
  const footer = page.getByRole('navigation', { name: 'Information' });
  const pages: [string, string[]][] = [
    ['Password Reset Procedure', ['at least 8 characters', 'Support never asks for your password or PIN']],
    ['Game Rules and Content', ['20 fixed paylines', '10 free spins', 'Hand Pay', 'a malfunction never counts as a loss']],
    ['Player Protection Information', ['Session panel', 'Hide balance', 'PIN lock', 'Game Sessions']],
    ['Terms of Use', ['Promotions', 'Fair use']],
    ['Privacy Policy', ['one-way hashes', 'no advertising or tracking cookies']],
  ];
  for (const [title, facts] of pages) {
    await footer.getByRole('button', { name: title, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: title });
    await expect(dialog).toBeVisible();
    const frame = dialog.frameLocator('iframe');
    await expect(frame.getByRole('heading', { level: 1, name: title })).toBeVisible();
    for (const fact of facts) await expect(frame.getByText(fact, { exact: false }).first()).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  }
  // The sixth page's slot.
  await expect(footer.getByRole('button', { name: 'Paytables', exact: true })).toBeVisible();
});

test('the quick panel shows only real events and only toggles that do something', async ({ page }) => {
  await useEnglish(page);
  await signIn(page);
  await page.getByRole('button', { name: 'Quick panel' }).first().click();
  const panel = page.getByRole('dialog', { name: 'Quick panel' });
  await expect(panel.getByText('New machines')).toBeVisible();
  await expect(panel.getByText('Happy hour')).toHaveCount(0);
  await expect(panel.getByRole('switch')).toHaveCount(1);
  await expect(panel.getByRole('switch', { name: 'Click sound' })).toBeVisible();
  for (const gone of ['Notifications', 'Cloud Sync', 'Retro Thrusters']) await expect(panel.getByText(gone, { exact: true })).toHaveCount(0);
});
