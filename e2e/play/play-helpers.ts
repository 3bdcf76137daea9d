/** Shared steps for the play journeys: real product, real cabinets, real WebRTC in Chromium. */
import { PROTOCOL_VERSION, type BrandWithMachines, type SlotSessionPage, type TransactionPage } from '@reel/protocol';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import WebSocket from 'ws';
import { apiToken } from '../web/helpers';

export const auth = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/** "₺1.234,56" (tr-TR, the product's default money locale) → 123456 cents. */
export function parseMoney(text: string): number {
  const clean = text.replace(/[^\d,.-]/g, '').replace(/\./g, '').replace(',', '.');
  const [units = '0', fraction = '00'] = clean.split('.');
  const sign = units.startsWith('-') ? -1 : 1;
  return sign * (Math.abs(Number(units)) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2)));
}

export async function balanceCents(request: APIRequestContext, token: string): Promise<number> {
  const response = await request.get('/api/player/balance', auth(token));
  return (await response.json()).balance as number;
}

export async function machineGroup(request: APIRequestContext, token: string, machineId: number) {
  const groups = (await (await request.get('/api/machine/all', auth(token))).json()) as BrandWithMachines[];
  const group = groups.find((entry) => entry.machines.some((machine) => machine.id === machineId));
  if (!group) throw new Error(`machine ${machineId} is in no group`);
  return { group, machine: group.machines.find((machine) => machine.id === machineId)! };
}

/** Lobby → group → Play on the machine's card. */
export async function joinFromLobby(page: Page, request: APIRequestContext, token: string, machineId: number) {
  const { group, machine } = await machineGroup(request, token, machineId);
  await page.goto('/lobby');
  await page.getByRole('link', { name: group.brand.name, exact: true }).click();
  const card = page.locator(`article[data-machine-id="${machineId}"]`);
  await expect(card.locator('[data-status]')).toHaveText('Available', { timeout: 20_000 });
  await card.getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/game/${machineId}/`));
  return machine;
}

/** Resolves when the game's <video> presents a decoded frame (requestVideoFrameCallback). */
export async function waitFirstFrame(page: Page, timeoutMs = 20_000) {
  await page.getByTestId('game-video').waitFor({ state: 'attached' });
  const presented = await page.evaluate(
    (limitMs) =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), limitMs);
        // The game may mount its <video> again (a rejoin after going offline): wait for the one
        // that is there now, every frame, rather than a handle that was just replaced.
        const watch = () => {
          const video = document.querySelector<HTMLVideoElement>('[data-testid="game-video"]');
          if (!video) return void requestAnimationFrame(watch);
          video.requestVideoFrameCallback(() => {
            clearTimeout(timer);
            resolve(true);
          });
        };
        watch();
      }),
    timeoutMs,
  );
  expect(presented, 'a video frame was presented').toBe(true);
  await expect(page.getByTestId('video-state')).toHaveText('LIVE');
}

export async function credits(page: Page): Promise<number> {
  return parseMoney((await page.getByTestId('machine-credits').textContent()) ?? '');
}

export async function spins(page: Page): Promise<number> {
  return Number((await page.getByTestId('session-spins').textContent()) ?? 0);
}

/** Turns autoplay on through its dialog, stopping after `spinCount` spins (one of AUTOPLAY_SPIN_CHOICES). */
export async function startAutoplay(page: Page, spinCount: number) {
  await page.getByRole('button', { name: 'Autoplay', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Autoplay: where it stops' });
  await dialog.getByRole('radio', { name: String(spinCount), exact: true }).check();
  await dialog.getByRole('button', { name: 'Start autoplay' }).click();
  await expect(page.getByRole('button', { name: 'Autoplay', exact: true })).toHaveAttribute('aria-pressed', 'true');
}

export async function cashIn(page: Page, label: RegExp, expectedCreditsCents: number) {
  await page.getByRole('button', { name: label }).click();
  await expect.poll(() => credits(page), { timeout: 15_000 }).toBe(expectedCreditsCents);
}

/**
 * A scatter win starts a free-spins round that the cabinet plays by itself (10 spins of about
 * 2.3 s, more on a retrigger); Spin stays disabled until it ends, so waiting for the machine to be
 * idle again must allow for a whole round, not just one game.
 */
export const BONUS_ROUND_TIMEOUT_MS = 120_000;

/** Waits until the game (and any free-spins round it started) is over and Spin can be pressed. */
export async function waitIdle(page: Page) {
  await expect(page.getByRole('button', { name: 'Spin', exact: true })).toBeEnabled({ timeout: BONUS_ROUND_TIMEOUT_MS });
}

/** Presses Spin, waits for the session to count the game, then for the machine to be idle again. */
export async function spinOnce(page: Page) {
  const before = await spins(page);
  await waitIdle(page);
  await page.getByRole('button', { name: 'Spin', exact: true }).click();
  await expect.poll(() => spins(page), { timeout: 15_000 }).toBeGreaterThan(before);
  await waitIdle(page);
}

export async function cashOut(page: Page) {
  await page.getByRole('button', { name: 'Cash out', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Cash out?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cash out', exact: true }).click();
  await expect.poll(() => credits(page), { timeout: 15_000 }).toBe(0);
}

export async function leaveToLobby(page: Page) {
  await page.getByRole('button', { name: 'Back to lobby' }).click();
  await expect(page).toHaveURL(/\/lobby$/, { timeout: 15_000 });
}

export async function sessionRows(request: APIRequestContext, token: string) {
  return ((await (await request.get('/api/player/slot-sessions?limit=50', auth(token))).json()) as SlotSessionPage).items;
}

export async function transactionRows(request: APIRequestContext, token: string) {
  return ((await (await request.get('/api/player/transactions?limit=50', auth(token))).json()) as TransactionPage).items;
}

/** Holds a machine for another player over the game channel, as a second device would. */
export async function holdMachine(baseURL: string, request: APIRequestContext, username: string, password: string, machineId: number) {
  const token = await apiToken(request, username, password);
  const socket = new WebSocket(`${baseURL.replace(/^http/, 'ws')}/ws/game?token=${encodeURIComponent(token)}`);
  const joined = await new Promise<{ event: string; data: Record<string, unknown> }>((resolve, reject) => {
    socket.on('open', () => socket.send(JSON.stringify({ event: 'init', data: { machineID: machineId, token, protocol: PROTOCOL_VERSION } })));
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw));
      if (message.event === 'joined' || message.event === 'error') resolve(message);
    });
    socket.on('error', reject);
  });
  return {
    joined,
    /** Leaves on purpose (cash out and close), then closes the socket. */
    async release() {
      if (socket.readyState !== WebSocket.OPEN) return;
      const closed = new Promise<void>((resolve) => {
        socket.on('message', (raw) => JSON.parse(String(raw)).event === 'closed' && resolve());
        setTimeout(resolve, 5000);
      });
      socket.send(JSON.stringify({ event: 'leave', data: {} }));
      await closed;
      socket.close();
    },
  };
}
