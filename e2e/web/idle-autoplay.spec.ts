/**
 * The idle prompt never interrupts a player whose machine plays by itself (autoplay or a bonus
 * round). Real time, no fake clock: the game's video and channel keep running as a player sees them.
 */
import { IDLE_TIMEOUT_MS } from '@reel/protocol';
import { expect, test } from '../product/fixtures';
import { apiToken, createPlayer, operator, signIn, useEnglish } from './helpers';
import { cashIn, leaveToLobby, machineGroup, waitFirstFrame } from '../play/play-helpers';

/** A machine no other browser test plays on (game-shell.spec.ts leaves it before this runs). */
const MACHINE = 11;

test('a player watching autoplay for longer than the idle timeout is not asked whether to continue', async ({ page, request }) => {
  test.setTimeout(IDLE_TIMEOUT_MS + 90_000);
  await useEnglish(page);
  const player = createPlayer('autoidle');
  operator('deposit', player.username, '100.00');
  const token = await apiToken(request, player.username, player.password);
  const { machine } = await machineGroup(request, token, MACHINE);
  await signIn(page, player.username, player.password);
  await page.goto(`/game/${machine.id}/${encodeURIComponent(machine.name)}`);
  await waitFirstFrame(page);
  await cashIn(page, /^Load ₺50,00$/, 5000);

  const autoplay = page.getByRole('button', { name: 'Autoplay', exact: true });
  await autoplay.click();
  await expect(autoplay).toHaveAttribute('aria-pressed', 'true');
  const started = Date.now();
  // No input from here on: without the rule the prompt comes at 60 s.
  while (Date.now() - started < IDLE_TIMEOUT_MS + 5_000) {
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    await page.waitForTimeout(5_000);
  }
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  // Autoplay ran the whole time (it did not stop early and let the idle clock restart).
  await expect(autoplay).toHaveAttribute('aria-pressed', 'true');

  await autoplay.click();
  await expect(autoplay).toHaveAttribute('aria-pressed', 'false');
  await leaveToLobby(page);
});
