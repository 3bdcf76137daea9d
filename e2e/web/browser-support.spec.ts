/**
 * Spec section 1: only Chrome or Safari-family browsers with WebRTC may play; others get the
 * unsupported screen (recommend Chrome or Safari, note on VPNs) instead of the app.
 */
import { expect, test } from '../product/fixtures';
import { useEnglish } from './helpers';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0';
const EDGE = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';

async function expectUnsupportedScreen(page: import('@playwright/test').Page) {
  await expect(page.getByRole('heading', { name: 'Your browser is not supported' })).toBeVisible();
  await expect(page.getByText('Please open this page in Chrome or Safari.', { exact: false })).toBeVisible();
  await expect(page.getByText('Some VPNs do not support this protocol', { exact: false })).toBeVisible();
  await expect(page.getByLabel('Email or username')).toHaveCount(0);
}

test('a Firefox user agent gets the unsupported screen, not the login form', async ({ browser }) => {
  const context = await browser.newContext({ userAgent: FIREFOX });
  const page = await context.newPage();
  await useEnglish(page);
  await page.goto('/login');
  await expectUnsupportedScreen(page);
  await context.close();
});

test('a Chrome without WebRTC gets the unsupported screen', async ({ page }) => {
  await useEnglish(page);
  await page.addInitScript(() => {
    delete (window as { RTCPeerConnection?: unknown }).RTCPeerConnection;
    delete (window as { webkitRTCPeerConnection?: unknown }).webkitRTCPeerConnection;
  });
  await page.goto('/login');
  await expectUnsupportedScreen(page);
});

test('Chrome plays without a banner; Edge (Chrome family) plays with the banner recommending Chrome or Safari', async ({ page, browser }) => {
  await useEnglish(page);
  await page.goto('/login');
  await expect(page.getByLabel('Email or username')).toBeVisible();
  await expect(page.getByText('For the best experience please use Chrome or Safari.')).toHaveCount(0);

  const context = await browser.newContext({ userAgent: EDGE });
  const edge = await context.newPage();
  await useEnglish(edge);
  await edge.goto('/login');
  await expect(edge.getByLabel('Email or username')).toBeVisible();
  await expect(edge.getByText('For the best experience please use Chrome or Safari.')).toBeVisible();
  await context.close();
});
