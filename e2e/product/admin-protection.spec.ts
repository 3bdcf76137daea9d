/**
 * The console's Protection section (issues 27 and 28) in Chromium against the real product: staff
 * see a player's limits and breaks and are not offered the early end; an admin ends a
 * self-exclusion early with a reason, the player can sign in again, and the audit trail shows it.
 */
import { ApiPath, Code, type LimitsUpdateRequest } from '@reel/protocol';
import type { APIRequestContext, Page } from '@playwright/test';
import { apiToken, createPlayer } from '../web/helpers';
import { ADMIN, consoleInEnglish, signInToConsole, STAFF } from './console-helpers';
import { expect, test } from './fixtures';

const REASON = 'e2e: excluded by mistake, confirmed by phone';

/** The player's own sign-in, as its answer's code (0 when it succeeds). */
async function signInCode(request: APIRequestContext, player: { username: string; password: string }) {
  const response = await request.post(`/api${ApiPath.login}`, { data: { username: player.username, password: player.password, site_id: 0 } });
  return response.ok() ? 0 : ((await response.json()).code as number);
}

/** The player's page in the console, found by the Players search. */
async function openPlayer(page: Page, username: string) {
  await page.getByRole('link', { name: 'Players' }).click();
  await page.getByLabel('Username, email, name or id').fill(username);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: username, exact: true }).click();
  const protection = page.getByRole('region', { name: 'Protection' });
  await expect(protection).toBeVisible();
  return protection;
}

test('staff see limits and breaks; an admin ends a self-exclusion early with a reason, recorded in the audit trail', async ({ page, request }) => {
  // The player sets two limits and excludes themself for six months.
  const player = createPlayer('selfex');
  const token = await apiToken(request, player.username, player.password);
  const headers = { authorization: `Bearer ${token}` };
  const limits: LimitsUpdateRequest = { limits: [{ key: 'deposit_day', value: 5_000 }, { key: 'session_minutes', value: 45 }] };
  expect((await request.put(`/api${ApiPath.limits}`, { headers, data: limits })).ok()).toBe(true);
  expect((await request.post(`/api${ApiPath.takeBreak}`, { headers, data: { period: 'self_exclusion_6m' } })).ok()).toBe(true);
  expect(await signInCode(request, player)).toBe(Code.SelfExcluded);

  // Staff see it all, and are not offered the admin's early end.
  await consoleInEnglish(page);
  await signInToConsole(page, STAFF);
  let protection = await openPlayer(page, player.username);
  const limitsTable = protection.getByRole('table', { name: 'Limits' });
  await expect(limitsTable.getByRole('row', { name: /Deposit per day/ })).toContainText(/50[.,]00/);
  await expect(limitsTable.getByRole('row', { name: /Session time/ })).toContainText('45 min');
  await expect(limitsTable.getByRole('row', { name: /Loss per day/ })).toContainText('none');
  const exclusion = protection.getByRole('table', { name: 'Breaks' }).getByRole('row', { name: /Self-exclusion/ });
  await expect(exclusion).toContainText('in force');
  await expect(protection.getByRole('button', { name: 'End self-exclusion' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Sign out' }).click();

  // An admin ends it early: a reason is required, then the break shows who ended it and why.
  await signInToConsole(page, ADMIN);
  protection = await openPlayer(page, player.username);
  await protection.getByRole('button', { name: 'End self-exclusion' }).click();
  const dialog = page.getByRole('dialog', { name: `End self-exclusion: ${player.username}` });
  await expect(dialog).toContainText('recorded in the audit trail');
  await dialog.getByLabel('Reason').fill(REASON);
  await dialog.getByRole('button', { name: 'End self-exclusion' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('Self-exclusion ended; the player can sign in again')).toBeVisible();
  await expect(exclusion).toContainText(`by ${ADMIN.username}: ${REASON}`);
  await expect(protection.getByRole('button', { name: 'End self-exclusion' })).toHaveCount(0);
  expect(await signInCode(request, player)).toBe(0);

  // The audit trail has the row, with its reason, found by the action filter.
  await page.getByRole('link', { name: 'Audit trail' }).click();
  await page.getByLabel('Action').fill('player.end-self-exclusion');
  await page.getByLabel('Actor').fill(`operator:${ADMIN.username}`);
  await page.getByRole('button', { name: 'Filter' }).click();
  const row = page.getByRole('row', { name: new RegExp(REASON) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('player.end-self-exclusion');
});
