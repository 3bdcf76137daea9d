/**
 * Play benchmark (`npm run bench`, or `tsx e2e/bench/play.ts`), through the real web app:
 *  1. click on Play in the lobby → first presented video frame (requestVideoFrameCallback), over 20 joins
 *     (goals: p95 ≤ 300 ms, the issue's target, and p50 ≤ 400 ms);
 *  2. Spin pressed → the reels visibly move (reel-area pixel signature compared frame by frame);
 *  3. (information, no goal) how many players with video THIS machine carries: one more at a time
 *     (each its own browser context, player and machine) until render-to-present p95 passes 150 ms,
 *     read from the cabinets' timestamp strip. Every Chromium runs here too, so this measures the
 *     bench machine, not the product's media capacity (TODO in docs/benchmarks.md: viewers per
 *     media process).
 * Goals and sample minimums go through a Verdict: the process exits 1 on a miss or a NaN figure.
 * Starts its own product on a free loopback port (TIMESTAMP_STRIP on) unless BENCH_BASE_URL is set;
 * then players must exist and the strip must be on. Everything runs on this machine (loopback).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import type { BrandWithMachines } from '@reel/protocol';
import { decodeTimestampStrip } from '@reel/protocol/timestamp-strip';
import { Verdict, freePort, waitForUrl } from '@reel/process';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.js';
import { createReelSignature, createStripReader, signatureMotion } from '../video/page/frame-probe.js';
import { pct } from './percentile.js';
import { installProbes, type Probe } from './play-probe.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Many players' pages run at once, most of them in the background: none may be throttled. */
const CHROME_ARGS = [...CHROMIUM_ARGS, '--disable-renderer-backgrounding', '--disable-background-timer-throttling', '--disable-backgrounding-occluded-windows'];
const JOINS = Number(process.env.BENCH_JOINS ?? 20);
const SPINS = Number(process.env.BENCH_SPINS ?? 30);
const MAX_PLAYERS = Number(process.env.BENCH_MAX_PLAYERS ?? 12);
const G2G_LIMIT_MS = 150;
const G2G_WARMUP_MS = 4000;
const G2G_WINDOW_MS = 5000;
const MOTION_THRESHOLD = 6;
const JOIN_MACHINE = 1;
const RUN_DEADLINE_MS = 20 * 60_000;
const JOIN_TIMEOUT_MS = 15_000;
/** A spin whose reels are not seen moving within this counts as this long (not dropped). */
const SPIN_WINDOW_MS = 900;
const MIN_JOINS = 10;
const MIN_SPINS = 10;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (ms: number) => (Number.isFinite(ms) ? `${ms.toFixed(0)} ms` : 'n/a');



async function login(base: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password, site_id: 0 }) });
  const body = (await response.json()) as { token?: string };
  if (!body.token) throw new Error(`sign-in of ${username} failed`);
  return body.token;
}

async function newPlayerPage(browser: Browser, base: string, token: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1024, height: 700 } });
  await context.addInitScript(() => window.localStorage.setItem('i18nextLng', 'en'));
  // tsx keeps function names with a `__name` helper the page does not have; give it one.
  await context.addInitScript({ content: `var __name = (f) => f; var decodeTimestampStrip = ${decodeTimestampStrip.toString()}; var createStripReader = ${createStripReader.toString()}; var createReelSignature = ${createReelSignature.toString()}; var signatureMotion = ${signatureMotion.toString()}; (${installProbes.toString()})();` });
  const page = await context.newPage();
  await page.goto(`${base}/lobby?access_token=${encodeURIComponent(token)}`);
  await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 30_000 });
  return page;
}

async function waitLive(page: Page, timeoutMs = 20_000) {
  await page.getByTestId('video-state').filter({ hasText: 'LIVE' }).waitFor({ timeout: timeoutMs });
}

/**
 * Waits for the machine's Play link in the lobby group page. A machine left on purpose must show
 * Available at once; if it does not, that is a bug worth a note (and a reload keeps the run going).
 */
async function waitPlayable(page: Page, notes: string[], label: string) {
  const card = page.locator(`article[data-machine-id="${JOIN_MACHINE}"]`);
  for (let attempt = 0; ; attempt++) {
    try {
      await card.getByRole('link').waitFor({ timeout: 3000 });
      return card.getByRole('link');
    } catch (error) {
      if (attempt >= 10) throw error;
      if (attempt === 0) notes.push(`${label}: the lobby still showed the machine as playing after it was left; reloaded`);
      await page.reload();
    }
  }
}

/** 1. Lobby click → first frame, measured in the page from the click to the first rVFC. */
async function lobbyToFirstFrame(page: Page, groups: BrandWithMachines[], notes: string[]): Promise<number[]> {
  const group = groups.find((entry) => entry.machines.some((machine) => machine.id === JOIN_MACHINE))!;
  const samples: number[] = [];
  for (let i = 0; i < JOINS; i++) {
    await page.getByRole('link', { name: group.brand.name, exact: true }).click();
    await waitPlayable(page, notes, `join ${i + 1}`);
    const ms = await page.evaluate(async (machineId) => {
      const link = document.querySelector<HTMLAnchorElement>(`article[data-machine-id="${machineId}"] a`)!;
      const t0 = performance.now();
      link.click();
      const deadline = t0 + 15_000; // JOIN_TIMEOUT_MS
      let video: HTMLVideoElement | null = null;
      while (!video && performance.now() < deadline) {
        video = document.querySelector<HTMLVideoElement>('[data-testid="game-video"]');
        if (!video) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      if (!video) return null;
      return new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => resolve(null), Math.max(0, deadline - performance.now()));
        video!.requestVideoFrameCallback((now) => {
          clearTimeout(timer);
          resolve(now - t0);
        });
      });
    }, JOIN_MACHINE);
    if (ms === null) {
      notes.push(`join ${i + 1}: no frame within ${JOIN_TIMEOUT_MS} ms; counted as ${JOIN_TIMEOUT_MS} ms`);
      samples.push(JOIN_TIMEOUT_MS);
    } else samples.push(ms);
    await waitLive(page).catch(() => undefined);
    await page.getByRole('button', { name: 'Back to lobby' }).click();
    await page.waitForURL(/\/lobby$/, { timeout: 15_000 });
    await sleep(200 + Math.random() * 300);
  }
  return samples;
}

/** 2. Spin press → first of three consecutive frames whose reel area changed. */
async function spinToMotion(page: Page, notes: string[]): Promise<{ samples: number[]; dropped: number }> {
  await waitLive(page);
  await page.getByRole('button', { name: /^Load ₺50,00$/ }).click();
  await page.getByTestId('machine-credits').filter({ hasText: '50' }).waitFor({ timeout: 15_000 });
  await page.evaluate(() => ((window as unknown as { probe: Probe }).probe.recording = true));
  const samples: number[] = [];
  let dropped = 0;
  for (let i = 0; i < SPINS; i++) {
    const spin = page.getByRole('button', { name: 'Spin', exact: true });
    try {
      await spin.waitFor({ state: 'visible' });
      await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('.spin')?.disabled, undefined, { timeout: 20_000 });
    } catch {
      notes.push(`spin ${i + 1}: the Spin button stayed disabled; sample dropped`);
      dropped++;
      continue;
    }
    await sleep(700);
    const result = await page.evaluate(async ({ threshold, windowMs }) => {
      const probe = (window as unknown as { probe: Probe }).probe;
      const settled = probe.frames.slice(-3);
      if (settled.length < 3 || settled.some((frame) => frame.motion > threshold)) return { still: false, ms: null, seen: probe.frames.slice(-6).map((frame) => frame.motion.toFixed(1)).join(' ') + ` (${probe.frames.length} frames)` };
      const t0 = performance.now();
      const button = document.querySelector<HTMLButtonElement>('.spin')!;
      // A real press starts with pointerdown, which is also what keeps the idle lock away.
      button.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
      button.click();
      await new Promise((resolve) => setTimeout(resolve, windowMs));
      const after = probe.frames.filter((frame) => frame.atMs >= t0);
      for (let k = 0; k + 2 < after.length; k++) {
        if (after[k]!.motion > threshold && after[k + 1]!.motion > threshold && after[k + 2]!.motion > threshold) return { still: true, ms: after[k]!.atMs - t0 };
      }
      return { still: true, ms: null };
    }, { threshold: MOTION_THRESHOLD, windowMs: SPIN_WINDOW_MS });
    if (!result.still) {
      notes.push(`spin ${i + 1}: reels not still before the press (motion ${'seen' in result ? result.seen : ''}); sample dropped`);
      dropped++;
    } else if (result.ms === null || result.ms > SPIN_WINDOW_MS) {
      notes.push(`spin ${i + 1}: no motion within ${SPIN_WINDOW_MS} ms; counted as ${SPIN_WINDOW_MS} ms`);
      samples.push(SPIN_WINDOW_MS);
    } else samples.push(result.ms);
    // Let the game (and any free spins) finish before the next press.
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('.spin')?.disabled, undefined, { timeout: 30_000 }).catch(() => undefined);
  }
  await page.evaluate(() => ((window as unknown as { probe: Probe }).probe.recording = false));
  return { samples, dropped };
}

interface Step {
  players: number;
  g2gP50: number;
  g2gP95: number;
  frames: number;
  fps: number;
}

async function measure(pages: Page[]): Promise<Step> {
  for (const each of pages)
    await each.evaluate(() => {
      const probe = (window as unknown as { probe: Probe }).probe;
      probe.strip = true;
      probe.recording = true;
      probe.frames.length = 0;
    });
  await sleep(G2G_WINDOW_MS);
  const g2g: number[] = [];
  let frames = 0;
  for (const each of pages) {
    const recorded = await each.evaluate(() => {
      const probe = (window as unknown as { probe: Probe }).probe;
      probe.recording = false;
      return probe.frames.map((frame) => ({ wallMs: frame.wallMs, renderedAtMs: frame.renderedAtMs }));
    });
    frames += recorded.length;
    for (const frame of recorded) if (frame.renderedAtMs !== null) g2g.push(frame.wallMs - frame.renderedAtMs);
  }
  return { players: pages.length, g2gP50: pct(g2g, 50), g2gP95: pct(g2g, 95), frames, fps: frames / pages.length / (G2G_WINDOW_MS / 1000) };
}

/** 3. One more player at a time, each watching its own machine; render-to-present over all of them. */
async function concurrency(browser: Browser, base: string, tokens: string[], machines: { id: number; name: string }[], notes: string[]): Promise<Step[]> {
  const pages: Page[] = [];
  const steps: Step[] = [];
  try {
    for (let k = 0; k < Math.min(tokens.length, machines.length, MAX_PLAYERS); k++) {
      const machine = machines[k]!;
      const page = await newPlayerPage(browser, base, tokens[k]!);
      await page.goto(`${base}/game/${machine.id}/${encodeURIComponent(machine.name)}`);
      try {
        await waitLive(page, 30_000);
      } catch {
        notes.push(`player ${k + 1} on machine ${machine.id}: no live video (${await page.url()})`);
        await page.context().close();
        continue;
      }
      pages.push(page);
      await sleep(G2G_WARMUP_MS);
      // A new page's start-up (app, decoder) can spike one window; a breach must hold twice.
      let step = await measure(pages);
      if (step.g2gP95 > G2G_LIMIT_MS) step = await measure(pages);
      steps.push(step);
      console.log(`  ${step.players} player(s): render-to-present p50 ${fmt(step.g2gP50)}, p95 ${fmt(step.g2gP95)}, ${step.fps.toFixed(1)} fps per player`);
      if (step.frames > 0 && Number.isNaN(step.g2gP95)) notes.push(`${pages.length} players: no readable timestamp strip (is TIMESTAMP_STRIP on?)`);
      if (step.g2gP95 > G2G_LIMIT_MS) break;
    }
  } finally {
    for (const page of pages) await page.context().close().catch(() => undefined);
  }
  return steps;
}

function createPlayers(dataDir: string, count: number): { username: string; password: string }[] {
  const players: { username: string; password: string }[] = [];
  const stamp = Date.now().toString(36);
  for (let i = 0; i < count; i++) {
    const username = `bench${stamp}${i}`;
    const run = (...args: string[]) =>
      execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/cli/operator.ts'), ...args], { cwd: root, env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, stdio: 'ignore', timeout: 60_000 });
    run('create-player', username, '--email', `${username}@bench.test`, '--password', 'bench1234', '--name', 'Bench', '--lastname', String(i));
    run('deposit', username, '500.00');
    players.push({ username, password: 'bench1234' });
  }
  return players;
}

async function main() {
  const deadline = setTimeout(() => {
    console.error('play bench: over the time limit, stopping');
    process.exit(1);
  }, RUN_DEADLINE_MS);
  deadline.unref();
  let product: ChildProcess | undefined;
  let base = process.env.BENCH_BASE_URL;
  const dataDir = path.join(root, '.tmp/bench-play-data');
  const notes: string[] = [];
  const stop = () => {
    if (product && product.exitCode === null) product.kill('SIGINT');
  };
  process.on('exit', stop);
  if (!base) {
    const port = await freePort();
    fs.rmSync(dataDir, { recursive: true, force: true });
    product = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/start.ts')], {
      cwd: root,
      env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', TIMESTAMP_STRIP: 'true', SESSION_GRACE_MS: '5000' },
      stdio: 'ignore',
    });
    base = `http://127.0.0.1:${port}`;
    if (!(await waitForUrl(`${base}/check`, 180_000))) throw new Error('the product did not start');
  }
  console.log(`play bench against ${base} (${os.cpus().length} CPU cores here; browser, server, media and cabinets share them)`);

  const demoToken = await login(base, 'demo', 'demo1234');
  const lobby = async () => (await (await fetch(`${base}/api/machine/all`, { headers: { authorization: `Bearer ${demoToken}` } })).json()) as BrandWithMachines[];
  // The cabinets connect after the server is up; wait until the machine under test is playable.
  let groups = await lobby();
  for (let waitedMs = 0; waitedMs < 120_000; waitedMs += 1000) {
    if (groups.flatMap((group) => group.machines).some((machine) => machine.id === JOIN_MACHINE && machine.status === 'available')) break;
    await sleep(1000);
    groups = await lobby();
  }
  await sleep(2000);
  const machines = groups.flatMap((group) => group.machines).sort((a, b) => a.id - b.id);

  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROME_ARGS });
  let firstFrame: number[] = [];
  let spin: { samples: number[]; dropped: number } = { samples: [], dropped: 0 };
  let steps: Step[] = [];
  try {
    console.log(`\n1. lobby click → first frame, ${JOINS} joins of machine ${JOIN_MACHINE}`);
    const page = await newPlayerPage(browser, base, demoToken);
    firstFrame = await lobbyToFirstFrame(page, groups, notes);
    console.log(`  samples (ms): ${firstFrame.map((ms) => ms.toFixed(0)).join(', ')}`);

    console.log(`\n2. spin press → reels moving, ${SPINS} spins`);
    await page.getByRole('link', { name: groups.find((g) => g.machines.some((m) => m.id === JOIN_MACHINE))!.brand.name, exact: true }).click();
    await (await waitPlayable(page, notes, 'spin test')).click();
    spin = await spinToMotion(page, notes);
    console.log(`  samples (ms): ${spin.samples.map((ms) => ms.toFixed(0)).join(', ')}${spin.dropped ? `; ${spin.dropped} dropped` : ''}`);
    await page.getByRole('button', { name: 'Back to lobby' }).click();
    await page.waitForURL(/\/lobby$/, { timeout: 15_000 }).catch(() => undefined);
    await page.context().close();

    console.log(`\n3. players with video this machine carries (information, not a product figure; one more at a time, until render-to-present p95 > ${G2G_LIMIT_MS} ms)`);
    const count = Math.min(MAX_PLAYERS, machines.length);
    let tokens: string[];
    if (product) {
      const players = createPlayers(dataDir, count);
      tokens = await Promise.all(players.map((player) => login(base!, player.username, player.password)));
    } else {
      tokens = [await login(base, 'demo', 'demo1234'), await login(base, 'alice', 'alice1234'), await login(base, 'bobby', 'bobby1234')];
      notes.push('BENCH_BASE_URL: only demo, alice and bobby play in part 3');
    }
    steps = await concurrency(browser, base, tokens, machines, notes);
  } finally {
    await browser.close().catch(() => undefined);
    stop();
  }

  const verdict = new Verdict('play bench');
  const held = steps.filter((step) => step.g2gP95 <= G2G_LIMIT_MS).reduce((max, step) => Math.max(max, step.players), 0);
  const goal = (name: string, value: number, max: number) => {
    const text = verdict.check(name, value, { max, unit: 'ms' });
    return `${fmt(value)}${text.includes('MISSED') ? ' MISSED' : ''}`;
  };
  const joinsTimedOut = firstFrame.filter((ms) => ms >= JOIN_TIMEOUT_MS).length;
  const rows: [string, string, string][] = [
    ['lobby click → first frame p50', '≤ 400 ms', goal('lobby click → first frame p50', pct(firstFrame, 50), 400)],
    ['lobby click → first frame p95', '≤ 300 ms', goal('lobby click → first frame p95', pct(firstFrame, 95), 300)],
    [`  joins (a timeout counts as ${JOIN_TIMEOUT_MS} ms)`, `≥ ${MIN_JOINS}`, `${verdict.samples('lobby click → first frame', firstFrame.length, MIN_JOINS)}${joinsTimedOut ? `, ${joinsTimedOut} timed out` : ''}`],
    ['spin press → reels moving p50', '', fmt(pct(spin.samples, 50))],
    ['spin press → reels moving p95', '≤ 120 ms', goal('spin press → reels moving p95', pct(spin.samples, 95), 120)],
    [`  spins (no motion counts as ${SPIN_WINDOW_MS} ms)`, `≥ ${MIN_SPINS}`, verdict.samples('spin press → reels moving', spin.samples.length, MIN_SPINS, spin.dropped)],
    ...steps.map((step): [string, string, string] => [`  ${step.players} players: render-to-present p50 / p95`, '', `${fmt(step.g2gP50)} / ${fmt(step.g2gP95)} (N=${step.frames} frames)`]),
    [`players this machine carries, render-to-present p95 ≤ ${G2G_LIMIT_MS} ms (not a product figure)`, `(${os.cpus().length} cores)`, `${held}${steps.length && steps.at(-1)!.g2gP95 <= G2G_LIMIT_MS ? ` (every machine tried: ${steps.at(-1)!.players})` : ''}`],
  ];
  const w0 = Math.max(...rows.map((row) => row[0].length));
  const w1 = Math.max(4, ...rows.map((row) => row[1].length));
  console.log(`\n${'metric'.padEnd(w0)} | ${'goal'.padEnd(w1)} | result`);
  console.log('-'.repeat(w0 + w1 + 16));
  for (const [name, goal, value] of rows) console.log(`${name.padEnd(w0)} | ${goal.padEnd(w1)} | ${value}`);
  for (const note of notes) console.log(`note: ${note}`);
  console.log('All players, the browser, the server, the media process and the cabinets run on this one machine over loopback.');
  console.log('First frame and spin are timed in the page (performance.now at the click/press → requestVideoFrameCallback); render-to-present is Date.now at the frame callback − the render time in the strip (the cabinet writes Date.now), one wall clock.');
  verdict.finish();
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
