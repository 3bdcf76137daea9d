/**
 * The idle prompt never interrupts a player whose machine plays by itself (autoplay or a bonus
 * round). The page's clock is Playwright's: jumping it past the idle timeout fires every timer that
 * came due once (as after a laptop's sleep), while the game's video and channel keep running in real
 * time. The same jump without autoplay brings the prompt, so the jump did reach the idle timer.
 */
import { IDLE_TIMEOUT_MS } from '@reel/protocol';
import { expect, test } from '../product/fixtures';
import { apiToken, createPlayer, operator, signIn, useEnglish } from './helpers';
import { cashIn, leaveToLobby, machineGroup, spins, startAutoplay, waitFirstFrame, waitIdle } from '../play/play-helpers';

/** A machine no other browser test plays on (game-shell.spec.ts leaves it before this runs). */
const MACHINE = 11;

test('a player watching autoplay for longer than the idle timeout is not asked whether to continue', async ({ page, request }) => {
  test.setTimeout(180_000);
  await useEnglish(page);
  const player = createPlayer('autoidle');
  operator('deposit', player.username, '100.00');
  const token = await apiToken(request, player.username, player.password);
  const { machine } = await machineGroup(request, token, MACHINE);
  await page.clock.install();
  await signIn(page, player.username, player.password);
  await page.goto(`/game/${machine.id}/${encodeURIComponent(machine.name)}`);
  await waitFirstFrame(page);
  await cashIn(page, /^Load ₺50,00$/, 5000);

  const autoplay = page.getByRole('button', { name: 'Autoplay', exact: true });
  await startAutoplay(page, 100);
  // No input from here on: the page's clock goes past the idle timeout at once.
  await page.clock.fastForward(IDLE_TIMEOUT_MS + 5_000);
  // Autoplay plays on (two more games), and nobody was asked whether to continue.
  const played = await spins(page);
  await expect.poll(() => spins(page), { timeout: 30_000 }).toBeGreaterThanOrEqual(played + 2);
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(autoplay).toHaveAttribute('aria-pressed', 'true');

  // Without autoplay the same jump asks.
  await autoplay.click();
  await expect(autoplay).toHaveAttribute('aria-pressed', 'false');
  await waitIdle(page);
  await page.clock.fastForward(IDLE_TIMEOUT_MS + 1_000);
  const prompt = page.getByRole('alertdialog', { name: 'Are you still there?' });
  await expect(prompt).toBeVisible();
  await prompt.getByRole('button', { name: 'Continue' }).click();
  await expect(prompt).toHaveCount(0);
  await leaveToLobby(page);
});
