/**
 * The IP/country policy has one switch, the server's `IP_CHECK`. A second product runs here with the
 * policy on and only TR allowed, and a country table that places loopback in Germany (loopback is
 * otherwise "LOCAL", always allowed), so this browser is refused: the web app
 * must show the spec's blocked screen instead of a login form the server would answer with 10703.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '../product/fixtures';
import { Code } from '@reel/protocol';
import { Product } from '../chaos/product';
import { REPO_ROOT, useEnglish } from './helpers';
import { spareProductPort } from '../product/instances';

const port = spareProductPort();
const dataDir = path.join(REPO_ROOT, `.tmp/e2e-ip-check-${port}`);
const cidrFile = `${dataDir}-countries.json`;
const product = new Product(port, dataDir, {
  IP_CHECK: 'true',
  IP_ALLOWED_COUNTRIES: 'TR',
  IP_CIDR_FILE: cidrFile,
  DEMO_CABINETS: 'false',
  MEDIA: 'false',
});

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(cidrFile), { recursive: true });
  fs.writeFileSync(cidrFile, JSON.stringify([{ cidr: '127.0.0.0/8', country: 'DE' }]));
  product.start();
  await product.waitUp(170_000);
});

test.afterAll(async () => {
  await product.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(product.logFile, { force: true });
  fs.rmSync(cidrFile, { force: true });
});

test('a refused country sees the blocked screen with its country and IP, not the login form', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: product.baseUrl });
  const page = await context.newPage();
  await useEnglish(page);

  // The server refuses this country on both of its doors.
  const check = await (await context.request.get('/check')).json();
  expect(check).toMatchObject({ status: 0, country: 'DE', ip: '127.0.0.1' });
  const login = await (await context.request.post('/api/login', { data: { username: 'demo', password: 'demo1234', site_id: 0 } })).json();
  expect(login.code).toBe(Code.LoginIpNotPermitted);
  // Settings.json reports the server's own switch.
  expect((await (await context.request.get('/Settings.json')).json()).IP_CHEKCING).toBe(true);

  await page.goto('/login');
  await expect(page.getByRole('alert')).toHaveText(
    'We see that you are connecting from DE with 127.0.0.1 address. Unfortunately, you are not among the permitted countries.',
  );
  await expect(page.getByLabel('Email or username')).toHaveCount(0);
  await context.close();
});
