import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { allowProductFaults, expect, test } from '../product/fixtures';
import { DATA_DIR, REPO_ROOT, apiToken, createPlayer, operator, signIn, useEnglish } from '../web/helpers';
import { auth, balanceCents, cashIn, credits, leaveToLobby, machineGroup, sessionRows, spinOnce, transactionRows, waitFirstFrame } from './play-helpers';

/** Its own machine: after this test another cabinet process holds it (and then nobody). */
const MACHINE = 10;

test.beforeEach(async ({ page }) => useEnglish(page));

test('a cabinet that comes back with an empty memory: the session is held, the game screen shows 50301, the credits are paid from the game records', async ({ page, request, baseURL }) => {
  test.setTimeout(180_000);
  // The whole point: the server finds the swapped cabinet's empty memory against its records.
  allowProductFaults(/meters do not follow from the records/);
  const player = createPlayer('malfunction');
  operator('deposit', player.username, '100.00');
  const token = await apiToken(request, player.username, player.password);
  const { machine } = await machineGroup(request, token, MACHINE);
  await signIn(page, player.username, player.password);
  await page.goto(`/game/${machine.id}/${encodeURIComponent(machine.name)}`);
  await waitFirstFrame(page);
  const walletBefore = await balanceCents(request, token);
  await cashIn(page, /^Load ₺50,00$/, 5000);
  await spinOnce(page);
  const onMachine = await credits(page);

  // Another cabinet with an empty memory takes the machine's place (a swapped or cleared machine).
  const memory = fs.mkdtempSync(path.join(os.tmpdir(), 'swapped-cabinet-'));
  const swapped = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'apps/cabinet/src/main.ts')], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      AGENT_URL: `${baseURL!.replace(/^http/, 'ws')}/ws/agent`,
      CABINET_KEYS_FILE: path.join(DATA_DIR, 'machine-keys.json'),
      CABINET_IDS: String(MACHINE),
      CABINET_DATA_DIR: memory,
    },
    stdio: 'ignore',
  });
  try {
    const notice = page.getByTestId('game-notice');
    await expect(notice).toBeVisible({ timeout: 60_000 });
    const amount = (onMachine / 100).toFixed(2).replace('.', ',');
    await expect(notice).toContainText('The machine reported a malfunction');
    await expect(notice).toContainText(amount);
    await expect(page.getByRole('button', { name: 'Spin', exact: true })).toBeDisabled();
    await expect.poll(() => balanceCents(request, token)).toBe(walletBefore - 5000 + onMachine);

    // The payment is a Hand Pay from the game records, nothing is booked as a loss.
    const [session] = await sessionRows(request, token);
    const moves = (await transactionRows(request, token)).filter((row) => row.session_id === session!.id);
    expect(moves.map((row) => [row.type, row.amount])).toEqual([
      ['Hand Pay', onMachine],
      ['Cash In', -5000],
    ]);
    expect(moves[0]!.tag).toMatch(/machine malfunction/);
    const open = (await (await request.get('/api/player/session', auth(token))).json()) as { machine_status: string };
    expect(open.machine_status).toBe('malfunction');

    await leaveToLobby(page);
    await expect.poll(async () => (await sessionRows(request, token))[0]?.status).toBe('closed');
    expect(await balanceCents(request, token)).toBe(walletBefore - 5000 + onMachine);
  } finally {
    swapped.kill('SIGKILL');
    fs.rmSync(memory, { recursive: true, force: true });
  }
});
