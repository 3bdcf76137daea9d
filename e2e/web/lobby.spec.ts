import { PROTOCOL_VERSION, type BrandWithMachines } from '@reel/protocol';
import { expect, test } from '../product/fixtures';
import { apiToken, signIn, useEnglish } from './helpers';

const STATUS_LABELS = ['Playing', 'Available', 'Waiting', 'Reserved', 'Not Available'];

test.beforeEach(async ({ page }) => useEnglish(page));

test('the lobby lists the groups with jackpots, machine counts and total slots', async ({ page, request }) => {
  const token = await apiToken(request);
  const groups = (await (await request.get('/api/machine/all', { headers: { authorization: `Bearer ${token}` } })).json()) as BrandWithMachines[];
  const total = groups.reduce((sum, group) => sum + group.brand.machineCount, 0);
  await signIn(page);
  await expect(page.getByText(`Total slots: ${total}`)).toBeVisible();
  for (const group of groups) {
    const card = page.getByRole('article', { name: group.brand.name, exact: true });
    await expect(card).toBeVisible();
    await expect(card.getByText(`Machines: ${group.brand.machineCount}`)).toBeVisible();
  }
});

test('a group shows every machine with one of the five status labels', async ({ page, request }) => {
  const token = await apiToken(request);
  const groups = (await (await request.get('/api/machine/all', { headers: { authorization: `Bearer ${token}` } })).json()) as BrandWithMachines[];
  const group = groups[0]!;
  await signIn(page);
  await page.getByRole('link', { name: group.brand.name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: group.brand.name, exact: true })).toBeVisible();
  for (const machine of group.machines) {
    const card = page.getByRole('article', { name: machine.name, exact: true });
    await expect(card).toBeVisible();
    const label = await card.locator('[data-status]').textContent();
    expect(STATUS_LABELS).toContain(label?.trim());
  }
  for (const label of STATUS_LABELS) await expect(page.getByRole('button', { name: new RegExp(`^${label} \\d+$`) })).toBeVisible();
});

test('a status change pushed over the notification channel updates the card without a reload', async ({ page, request, baseURL }) => {
  const demoToken = await apiToken(request);
  // The demo cabinets connect a moment after the server answers: wait for one to be available.
  let target: { group: BrandWithMachines; machine: BrandWithMachines['machines'][number] } | undefined;
  await expect
    .poll(
      async () => {
        const groups = (await (await request.get('/api/machine/all', { headers: { authorization: `Bearer ${demoToken}` } })).json()) as BrandWithMachines[];
        target = groups.flatMap((group) => group.machines.map((machine) => ({ group, machine }))).find(({ machine }) => machine.status === 'available');
        return target !== undefined;
      },
      { timeout: 30_000, message: 'a demo cabinet comes online' },
    )
    .toBe(true);
  const { group, machine } = target!;

  await signIn(page);
  await page.getByRole('link', { name: group.brand.name, exact: true }).click();
  const card = page.getByRole('article', { name: machine.name, exact: true });
  await expect(card.locator('[data-status]')).toHaveText('Available');
  let reloads = 0;
  // Lobby data requests; the machine pictures (…/image) are refreshed on their own on purpose.
  page.on('request', (req) => req.url().includes('/api/machine/') && !/\/image(\?|$)/.test(req.url()) && reloads++);

  // Another player takes the machine over the game channel: the lobby must learn it by push.
  const aliceToken = await apiToken(request, 'alice', 'alice1234');
  const wsUrl = `${baseURL!.replace(/^http/, 'ws')}/ws/game?token=${encodeURIComponent(aliceToken)}`;
  await page.evaluate(
    ({ url, machineID, token, protocol }) =>
      new Promise<void>((resolve) => {
        const socket = new WebSocket(url);
        (window as unknown as { aliceSocket: WebSocket }).aliceSocket = socket;
        socket.onopen = () => {
          socket.send(JSON.stringify({ event: 'init', data: { machineID, token, protocol } }));
          resolve();
        };
      }),
    { url: wsUrl, machineID: machine.id, token: aliceToken, protocol: PROTOCOL_VERSION },
  );
  await expect(card.locator('[data-status]')).toHaveText('Playing', { timeout: 15_000 });
  expect(reloads).toBe(0);
  await page.evaluate(() => (window as unknown as { aliceSocket: WebSocket }).aliceSocket.close());
});
