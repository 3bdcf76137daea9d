/**
 * The operator console's floor, hand pays and support chat (issue 27), a player in Chromium and a
 * staff member beside them. The console's pages are another branch's: the staff side is driven
 * through its API (/api/admin/...), as the console itself drives it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { AdminChatPath, AdminFloorPath, AdminHandPayPath, AdminPath, type HandPayView } from '@reel/protocol';
import { expect, test } from '../product/fixtures';
import { apiToken, createPlayer, DATA_DIR, operator, signIn, useEnglish } from '../web/helpers';
import { auth, balanceCents, cashIn, machineGroup, spins, waitFirstFrame } from './play-helpers';

/** Machines no other spec plays (4, 8 and 12 are the demo's reservation machines, joined directly). */
const MACHINES = { kick: 4, stop: 8, handPay: 12 } as const;

async function staffToken(request: APIRequestContext, username = 'staff1', password = 'staff1234') {
  const response = await request.post(`/api${AdminPath.login}`, { data: { username, password } });
  expect(response.ok()).toBe(true);
  return (await response.json()).token as string;
}

const floorPath = (template: string, machineId: number) => `/api${template.replace(':machineId', String(machineId))}`;

/** A fresh player signed in on the game screen of the machine, video playing. */
async function playerOnMachine(page: Page, request: APIRequestContext, prefix: string, machineId: number) {
  const player = createPlayer(prefix);
  operator('deposit', player.username, '100.00');
  const token = await apiToken(request, player.username, player.password);
  const { machine } = await machineGroup(request, token, machineId);
  await signIn(page, player.username, player.password);
  await page.goto(`/game/${machine.id}/${encodeURIComponent(machine.name)}`);
  await waitFirstFrame(page);
  return { player, token };
}

test.beforeEach(async ({ page }) => useEnglish(page));

test('staff reply in the support chat and the player sees it live within 2 s, with the unread badge and the real status', async ({ page, request }) => {
  const player = createPlayer('chat');
  const staff = await staffToken(request);
  await signIn(page, player.username, player.password);
  await page.getByRole('button', { name: 'Support chat' }).click();
  const panel = page.getByRole('dialog', { name: 'Support chat' });

  const online = await request.put(`/api${AdminChatPath.status}`, { ...auth(staff), data: { status: 'online' } });
  expect((await online.json()).deskStatus).toBe('online');
  await page.reload();
  await page.getByRole('button', { name: 'Support chat' }).click();
  const desk = panel.getByRole('button', { name: /Support/ });
  await expect(desk).toContainText(/online/i);
  await desk.click();
  await panel.getByPlaceholder('Type your message').fill('My reels froze');
  await panel.getByPlaceholder('Type your message').press('Enter');
  await expect(panel.getByText('My reels froze')).toBeVisible();

  const conversations = await (await request.get(`/api${AdminChatPath.conversations}`, auth(staff))).json();
  const mine = conversations.find((c: { username: string }) => c.username === player.username);
  expect(mine).toMatchObject({ lastMessage: 'My reels froze', waiting: true });
  const sentAt = Date.now();
  const reply = await request.post(`/api${AdminChatPath.reply.replace(':playerId', String(mine.playerId))}`, {
    ...auth(staff),
    data: { message: 'Looking at your machine now' },
  });
  expect(reply.ok()).toBe(true);
  await expect(panel.getByText('Looking at your machine now')).toBeVisible({ timeout: 2_000 });
  expect(Date.now() - sentAt).toBeLessThan(2_000);

  // A reply while the panel is closed waits as unread: the badge counts it when the player looks.
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await request.post(`/api${AdminChatPath.reply.replace(':playerId', String(mine.playerId))}`, { ...auth(staff), data: { message: 'Fixed, try again' } });
  await page.getByRole('button', { name: 'Support chat' }).click();
  await expect(panel.getByRole('button', { name: /Support/ }).locator('.badge')).toHaveText('1');
  await panel.getByRole('button', { name: /Support/ }).click();
  await expect(panel.getByText('Fixed, try again')).toBeVisible();
  await expect(panel.getByRole('button', { name: /Support/ }).locator('.badge')).toHaveCount(0);
  await request.put(`/api${AdminChatPath.status}`, { ...auth(staff), data: { status: 'offline' } });
});

test('staff kick the player off the machine: the game gets QUIT_REQUEST and returns to the lobby', async ({ page, request }) => {
  await playerOnMachine(page, request, 'kicked', MACHINES.kick);
  const staff = await staffToken(request);
  const kicked = await request.post(floorPath(AdminFloorPath.kick, MACHINES.kick), { ...auth(staff), data: { reason: 'e2e: abusive chat' } });
  expect(kicked.ok()).toBe(true);
  await expect(page.getByText('Staff removed you from the machine.', { exact: false })).toBeVisible();
  await expect(page).toHaveURL(/\/lobby$/);
  const floor = await (await request.get(`/api${AdminFloorPath.floor}`, auth(staff))).json();
  expect(floor.machines.find((m: { machineId: number }) => m.machineId === MACHINES.kick).session).toMatchObject({ status: 'disconnected' });
});

test('an emergency stop disables Spin on the player screen with the reason; released, play and cash out come back', async ({ page, request }) => {
  await playerOnMachine(page, request, 'stopped', MACHINES.stop);
  await cashIn(page, /^Load ₺5,00$/, 500);
  const spin = page.getByRole('button', { name: 'Spin', exact: true });
  await expect(spin).toBeEnabled();
  const staff = await staffToken(request);
  const stopped = await request.put(floorPath(AdminFloorPath.emergencyStop, MACHINES.stop), {
    ...auth(staff),
    data: { stopped: true, reason: 'smoke from the cabinet' },
  });
  expect(await stopped.json()).toMatchObject({ ok: true, delivered: true });
  await expect(page.getByTestId('emergency-stop')).toContainText('smoke from the cabinet');
  await expect(spin).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Cash out', exact: true })).toBeDisabled();

  const released = await request.put(floorPath(AdminFloorPath.emergencyStop, MACHINES.stop), {
    ...auth(staff),
    data: { stopped: false, reason: 'all clear' },
  });
  expect(released.ok()).toBe(true);
  await expect(page.getByTestId('emergency-stop')).toHaveCount(0);
  await expect(spin).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Cash out', exact: true })).toBeEnabled();
});

test('a win at the hand pay limit waits for staff, then is paid once on approval', async ({ page, request }) => {
  test.setTimeout(180_000);
  const settingsFile = path.join(DATA_DIR, 'Settings.json');
  const saved = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : null;
  // Every win is a hand pay on this product while the test runs.
  fs.writeFileSync(settingsFile, JSON.stringify({ ...(saved ? JSON.parse(saved) : {}), HAND_PAY_LIMIT: 1 }));
  try {
    const { token } = await playerOnMachine(page, request, 'handpay', MACHINES.handPay);
    const staff = await staffToken(request);
    const waiting = async () =>
      ((await (await request.get(`/api${AdminHandPayPath.list}?status=waiting`, auth(staff))).json()) as HandPayView[]).filter(
        (h) => h.machineId === MACHINES.handPay,
      );
    await cashIn(page, /^Load ₺50,00$/, 5_000);
    const spin = page.getByRole('button', { name: 'Spin', exact: true });
    // Spin until a game wins (then the machine locks and the hand pay waits).
    for (let i = 0; i < 60 && (await waiting()).length === 0; i++) {
      const before = await spins(page);
      await expect(spin).toBeEnabled({ timeout: 30_000 });
      await spin.click();
      await expect.poll(() => spins(page), { timeout: 15_000 }).toBeGreaterThan(before);
      await expect.poll(async () => (await waiting()).length > 0 || (await spin.isEnabled()), { timeout: 30_000 }).toBe(true);
    }
    const [handPay] = await waiting();
    expect(handPay).toBeDefined();
    await expect(page.getByTestId('game-notice')).toContainText('waiting for staff approval');
    const before = await balanceCents(request, token);

    const approve = () =>
      request.post(`/api${AdminHandPayPath.approve.replace(':id', String(handPay!.id))}`, { ...auth(staff), data: { reason: 'e2e: seen on camera' } });
    const paid = await approve();
    expect(await paid.json()).toMatchObject({ paid: true, handPay: { status: 'paid', firstSigner: 'operator:staff1' } });
    expect(await balanceCents(request, token)).toBe(before + handPay!.amountCents);
    await expect(page.getByTestId('game-notice')).toHaveCount(0);
    // Paid once: a second approval is refused and moves nothing.
    const again = await approve();
    expect(again.status()).toBe(409);
    expect(await balanceCents(request, token)).toBe(before + handPay!.amountCents);
  } finally {
    if (saved === null) fs.rmSync(settingsFile, { force: true });
    else fs.writeFileSync(settingsFile, saved);
  }
});
