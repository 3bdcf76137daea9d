/** Shared steps for the web app's end-to-end tests (real server, real Chromium). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { REPO_ROOT, workerProduct } from '../product/instances';
import { runOperatorSync } from '../product/operator-client';

export { REPO_ROOT };
const here = path.dirname(fileURLToPath(import.meta.url));
const ARTIFACTS_DIR = path.resolve(here, '../artifacts');
/** The data directory of this worker's product; the operator CLI must talk to the same database. */
export const DATA_DIR = workerProduct().dataDir;

/**
 * Runs `npm run operator -- ...` against the server under test and returns what it printed; throws
 * on a non-zero exit. The command line stays loaded in a thread of this worker (product/operator-client.ts).
 */
export function operator(...args: string[]): string {
  return runOperatorSync(DATA_DIR, args);
}

let counter = 0;
/** A fresh player per test, so blocking, banning and password changes never touch the demo accounts. */
export function createPlayer(prefix: string, password = 'secret1234', extra: string[] = []): { username: string; password: string } {
  const username = `${prefix}${Date.now().toString(36)}${counter++}`.toLowerCase();
  operator('create-player', username, '--email', `${username}@e2e.test`, '--password', password, '--name', 'Test', '--lastname', 'Player', ...extra);
  return { username, password };
}

/** The login page starts in Turkish; tests pick English so their texts read like the spec. */
export async function useEnglish(page: Page) {
  await page.addInitScript(() => {
    if (!window.localStorage.getItem('i18nextLng')) window.localStorage.setItem('i18nextLng', 'en');
  });
}

export async function signIn(page: Page, username = 'demo', password = 'demo1234') {
  await page.goto('/login');
  await page.getByLabel('Email or username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/lobby$/);
}

export async function apiToken(request: APIRequestContext, username = 'demo', password = 'demo1234'): Promise<string> {
  const response = await request.post('/api/login', { data: { username, password, site_id: 0 } });
  expect(response.ok()).toBe(true);
  return (await response.json()).token as string;
}

/** axe with WCAG 2.1 AA rules; the bar is zero serious or critical violations. */
export async function expectAccessible(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  const summary = bad.map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  expect(summary, `axe violations on ${label}`).toEqual([]);
}

export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`) });
}
