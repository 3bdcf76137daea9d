/**
 * CLICK_SOUND and VOLUME: a game button press makes a click through WebAudio at the game's volume
 * (which starts at VOLUME); the player's quick setting switches it off. The page's WebAudio is
 * observed, not replaced: an init script records each oscillator start and the gain it goes through.
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../product/fixtures';
import { apiToken, createPlayer, operator, signIn, useEnglish } from './helpers';
import { credits, leaveToLobby, machineGroup, waitFirstFrame } from '../play/play-helpers';

/** A machine no other browser test plays on. */
const MACHINE = 11;

declare global {
  interface Window {
    __clicks: number[];
  }
}

const clicks = (page: Page) => page.evaluate(() => window.__clicks.slice());

test('a game button clicks at the VOLUME setting; muted or switched off in the quick panel, it does not', async ({ page, request }) => {
  test.setTimeout(120_000);
  await useEnglish(page);
  await page.route('**/Settings.json', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), VOLUME: 0.5, CLICK_SOUND: true } });
  });
  await page.addInitScript(() => {
    window.__clicks = [];
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (this: OscillatorNode, ...args: [number?]) {
      // The click's oscillator feeds a gain node set to the click's volume before it starts.
      window.__clicks.push(Number((this as unknown as { __gain?: number }).__gain ?? -1));
      return start.apply(this, args);
    };
    const connect = AudioNode.prototype.connect as (this: AudioNode, ...args: unknown[]) => unknown;
    AudioNode.prototype.connect = function (this: AudioNode, ...args: unknown[]) {
      const [destination] = args;
      if (this instanceof OscillatorNode && destination instanceof GainNode) (this as unknown as { __gain?: number }).__gain = destination.gain.value;
      return connect.apply(this, args);
    } as typeof AudioNode.prototype.connect;
  });
  const player = createPlayer('click');
  operator('deposit', player.username, '100.00');
  const token = await apiToken(request, player.username, player.password);
  const { machine } = await machineGroup(request, token, MACHINE);
  await signIn(page, player.username, player.password);
  await page.goto(`/game/${machine.id}/${encodeURIComponent(machine.name)}`);
  await waitFirstFrame(page);

  // The game starts muted (browsers' autoplay rule): no click yet. A click sound starts in the
  // button's handler, long before the cash in it sends comes back as credits.
  const betUp = page.getByRole('button', { name: 'Raise bet' });
  await page.getByRole('button', { name: /^Load ₺5,00$/ }).click();
  await expect.poll(() => credits(page), { timeout: 15_000 }).toBe(500);
  expect(await clicks(page)).toEqual([]);

  await page.getByRole('button', { name: 'Unmute', exact: true }).click();
  await betUp.click();
  await expect.poll(() => clicks(page)).toEqual([0.5]);

  // The player's own switch in the quick panel.
  await page.goto('/lobby');
  await page.getByRole('button', { name: 'Quick panel' }).first().click();
  await page.getByRole('dialog', { name: 'Quick panel' }).getByRole('switch', { name: 'Click sound' }).click();
  await page.keyboard.press('Escape');
  await page.goto(`/game/${machine.id}/${encodeURIComponent(machine.name)}`);
  await waitFirstFrame(page);
  await page.getByRole('button', { name: 'Unmute', exact: true }).click();
  const loaded = await credits(page);
  await page.getByRole('button', { name: /^Load ₺5,00$/ }).click();
  await expect.poll(() => credits(page), { timeout: 15_000 }).toBe(loaded + 500);
  expect(await clicks(page)).toEqual([]);
  await leaveToLobby(page);
});
