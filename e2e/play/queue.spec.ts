/**
 * The queue for a busy machine (issue 29), two players in Chromium against the real product: the
 * second queues from the lobby card while the first plays, the first leaves, the second gets the
 * ready check (dialog, browser notification, blinking title), accepts, and plays the machine.
 */
import { expect, test } from '../product/fixtures';
import { workerProduct } from '../product/instances';
import { apiToken, createPlayer, operator, signIn, useEnglish } from '../web/helpers';
import { auth, cashIn, leaveToLobby, machineGroup, spinOnce, waitFirstFrame } from './play-helpers';

/** Golden Reels 2: the test leaves it free and its line empty for the specs after it. */
const MACHINE = 2;

function newPlayer(prefix: string) {
  const player = createPlayer(prefix);
  operator('deposit', player.username, '100.00');
  return player;
}

test('the second player queues, the first leaves, the second gets the ready check, accepts and plays', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  await useEnglish(page);
  const first = newPlayer('qfirst');
  const firstToken = await apiToken(request, first.username, first.password);
  const { group, machine } = await machineGroup(request, firstToken, MACHINE);
  await signIn(page, first.username, first.password);
  await page.goto(`/game/${machine.id}/${encodeURIComponent(machine.name)}`);
  await waitFirstFrame(page);

  // The second player: a browser of their own, whose notifications are recorded.
  const second = newPlayer('qsecond');
  const secondToken = await apiToken(request, second.username, second.password);
  const context = await browser.newContext({ baseURL: workerProduct().url });
  const other = await context.newPage();
  await useEnglish(other);
  await other.addInitScript(() => {
    const shown: string[] = [];
    (window as unknown as { shownNotifications: string[] }).shownNotifications = shown;
    class RecordedNotification {
      static permission = 'granted';
      static requestPermission = async () => 'granted';
      constructor(title: string) {
        shown.push(title);
      }
    }
    Object.defineProperty(window, 'Notification', { value: RecordedNotification, configurable: true });
  });
  await signIn(other, second.username, second.password);
  await other.getByRole('link', { name: group.brand.name, exact: true }).click();
  const card = other.locator(`article[data-machine-id="${MACHINE}"]`);
  await expect(card.locator('[data-status]')).toHaveText('Playing', { timeout: 20_000 });
  await card.getByRole('button', { name: /^Join queue/ }).click();
  await expect(card.getByRole('status')).toContainText('In queue: 1 of 1');
  await expect(card).toContainText('1 in queue');

  // The first player leaves: the machine frees and is held for the second.
  await leaveToLobby(page);
  const ready = other.getByRole('alertdialog', { name: 'Your turn!' });
  await expect(ready).toBeVisible({ timeout: 20_000 });
  await expect(ready).toContainText(machine.name);
  await expect(ready).toContainText(/\d+ s left/);
  await expect
    .poll(() =>
      other.evaluate(() => (window as unknown as { shownNotifications: string[] }).shownNotifications),
    )
    .toContain('Your turn!');
  await expect.poll(() => other.title(), { timeout: 5_000 }).toBe('Your turn!');
  await expect(card.locator('[data-status]')).toHaveText('Reserved');

  // Held: the first player cannot take it back meanwhile.
  await page.goto(`/game/${machine.id}/${encodeURIComponent(machine.name)}`);
  await expect(page).toHaveURL(/\/lobby$/, { timeout: 15_000 });
  await expect(
    page.getByText('This machine is held for the players in its queue; join the queue'),
  ).toBeVisible();

  await ready.getByRole('button', { name: 'Play now' }).click();
  await expect(other).toHaveURL(new RegExp(`/game/${MACHINE}/`));
  await waitFirstFrame(other);
  await cashIn(other, /^Load ₺5,00$/, 500);
  await spinOnce(other);
  const queue = await (await request.get('/api/player/queue', auth(secondToken))).json();
  expect(queue).toMatchObject({ status: true, entry: null });
  await leaveToLobby(other);
  await context.close();
});
