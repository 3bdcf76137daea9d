/**
 * With the country policy off (the product's default), a failing `/check` cannot stop a player and
 * no load flashes "Your IP address is being checked" (issue 25). The policy-on rule is
 * ip-check.spec.ts's.
 */
import { expect, test } from '../product/fixtures';
import { signIn, useEnglish } from './helpers';

test('policy off: a failing /check neither blocks the app nor flashes the checking screen', async ({ page }) => {
  await useEnglish(page);
  let checks = 0;
  await page.route('**/check', (route) => {
    checks += 1;
    return route.fulfill({ status: 502, body: 'Bad Gateway' });
  });
  // Records whether the checking text or the network alert ever reached the page.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { seenTexts: string[] }).seenTexts = seen;
    new MutationObserver(() => {
      const text = document.body?.innerText ?? '';
      for (const phrase of ['Your IP address is being checked', 'error on network connection']) if (text.includes(phrase) && !seen.includes(phrase)) seen.push(phrase);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Choose a Slot Group' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Choose a Slot Group' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { seenTexts: string[] }).seenTexts)).toEqual([]);
  expect(checks).toBe(0);
});
