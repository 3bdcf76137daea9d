import { expect, test } from '../product/fixtures';

test('the product boots: the page loads and the API documents itself', async ({ page, request }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(/.+/);
  const docs = await request.get('/api/docs/json');
  expect(docs.status()).toBe(200);
  const openapi = await docs.json();
  expect(openapi.paths).toHaveProperty('/api/login');
  expect(openapi.paths).toHaveProperty('/api/player/balance');
  const ui = await request.get('/api/docs');
  expect(ui.status()).toBe(200);
  const check = await (await request.get('/check')).json();
  expect(check).toMatchObject({ status: 1, ip: expect.any(String) });
  const settings = await (await request.get('/Settings.json')).json();
  expect(settings).toMatchObject({ MAX_ALL_IN_LIMIT: 2500000, PIN_CHECK: false });
});

test('the demo player can sign in through the API', async ({ request }) => {
  const login = await request.post('/api/login', { data: { username: 'demo', password: 'demo1234', site_id: 0 } });
  expect(login.status()).toBe(200);
  const { token } = await login.json();
  const balance = await request.get('/api/player/balance', { headers: { authorization: `Bearer ${token}` } });
  // The seeded 1000.00, unless a test before this one moved it.
  const cents = (await balance.json()).balance;
  expect(Number.isInteger(cents) && cents >= 0).toBe(true);
});
