/**
 * Lighthouse performance (mobile emulation, its default simulated throttling) for /login and /lobby
 * against the real product, measured two ways in one interleaved loop:
 *  - **deployed** (judged): through HAProxy terminating TLS with HTTP/2 (tls-front.ts), the way
 *    players reach a deployment;
 *  - **plain HTTP/1.1** (printed, no goal): the product's own port, as `npm start` serves it on a
 *    developer's machine. Lighthouse simulates a cold TCP connection for each of the page's
 *    parallel module downloads there, which no deployment serves.
 * BENCH_BASE_URL points Lighthouse at a running product (plain HTTP); otherwise one is started on
 * port 8093. BENCH_WEB_LANTERN=<dir> writes Lantern's simulated timings per run (docs/web.md).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as Lantern from 'lighthouse/core/lib/lantern/lantern.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.js';
import { waitForUrl } from '@reel/process';
import { startTlsFront, tlsFrontMissing, type TlsFront } from './tls-front.js';

export const LIGHTHOUSE_RUNS = 5;
const TLS_FRONT_PORT = 8493;
export const ROUTES = ['/login', '/lobby'] as const;
type Route = (typeof ROUTES)[number];
export const TRANSPORTS = ['deployed', 'http1'] as const;
type Transport = (typeof TRANSPORTS)[number];
export const TRANSPORT_NAMES: Record<Transport, string> = {
  deployed: 'deployed (HAProxy, TLS, HTTP/2)',
  http1: 'plain HTTP/1.1 (npm start)',
};
/** Lighthouse runtime errors about recording the trace, not about the page. */
const TRACE_RECORDING_ERRORS = new Set(['NO_NAVSTART', 'NO_TRACING_STARTED']);

/** The throttling and emulation a Lighthouse result ran under, as one line, from its configSettings. */
function describeSettings(settings: {
  formFactor?: string;
  throttlingMethod?: string;
  throttling?: Record<string, number | undefined>;
  screenEmulation?: { width?: number; height?: number; deviceScaleFactor?: number; mobile?: boolean; disabled?: boolean };
}) {
  const t = settings.throttling ?? {};
  const screen = settings.screenEmulation ?? {};
  return [
    `formFactor ${settings.formFactor}`,
    `throttlingMethod ${settings.throttlingMethod}`,
    `rttMs ${t.rttMs}`,
    `throughputKbps ${t.throughputKbps}`,
    `requestLatencyMs ${t.requestLatencyMs}`,
    `downloadThroughputKbps ${t.downloadThroughputKbps}`,
    `uploadThroughputKbps ${t.uploadThroughputKbps}`,
    `cpuSlowdownMultiplier ${t.cpuSlowdownMultiplier}`,
    `screen ${screen.disabled ? 'not emulated' : `${screen.width}×${screen.height} @${screen.deviceScaleFactor}x${screen.mobile ? ' mobile' : ''}`}`,
  ].join(', ');
}

/**
 * Lantern's simulated timings of the last Lighthouse run, one line per request or main-thread task
 * (start-end ms, what), per simulation (optimistic/pessimistic FCP, LCP, TTI), then forgotten.
 */
function lanternTimings(): string {
  const lines: string[] = [];
  const simulations = Lantern.Simulation.Simulator.allNodeTimings;
  for (const [label, timings] of simulations) {
    lines.push(`## ${label}`);
    for (const [node, timing] of [...timings].sort((a, b) => a[1].startTime - b[1].startTime)) {
      // The path only: the lobby's address carries the sign-in token in its query.
      const what = node.type === 'network' ? `${new URL(node.request.url).pathname.slice(0, 60)} ${node.request.transferSize} B` : `CPU ${(node.duration / 1000).toFixed(1)} ms observed`;
      lines.push(`${Math.round(timing.startTime)}-${Math.round(timing.endTime)} ${what}`);
    }
  }
  simulations.clear();
  return lines.join('\n');
}

async function startProduct(root: string): Promise<{ base: string; product?: ChildProcess } | { error: string }> {
  if (process.env.BENCH_BASE_URL) return { base: process.env.BENCH_BASE_URL };
  const port = 8093;
  const dataDir = path.join(root, '.tmp/bench-web-data');
  fs.rmSync(dataDir, { recursive: true, force: true });
  const product = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/start.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  if (!(await waitForUrl(`${base}/check`, 120_000))) {
    product.kill('SIGINT');
    return { error: 'the product did not start' };
  }
  return { base, product };
}

/** Scores per transport and route: a run's score, or null when it scored nothing or ended on another page. */
type Scores = Record<Transport, Record<Route, (number | null)[]>>;

export async function lighthouseScores(root: string): Promise<{ scores: Scores; settings: string[] } | { error: string }> {
  const missing = tlsFrontMissing();
  if (missing) return { error: `no TLS front for the deployed measurement: ${missing}` };
  const started = await startProduct(root);
  if ('error' in started) return started;
  const { base, product } = started;
  let front: TlsFront | undefined;
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  try {
    front = await startTlsFront(TLS_FRONT_PORT, Number(new URL(base).port || 80));
    const origins: Record<Transport, string> = { deployed: front.url, http1: base };
    // A fresh sign-in per lobby run: a session idle for SESSION_IDLE_TIMEOUT_MS (5 min) is over, and
    // twenty Lighthouse runs on a busy machine take longer than that (runs then ended on /login).
    const signIn = async () => {
      const login = await fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'demo', password: 'demo1234', site_id: 0 }) });
      return ((await login.json()) as { token: string }).token;
    };
    const urls: Record<Route, (origin: string) => Promise<string>> = {
      '/login': (origin) => Promise.resolve(`${origin}/login`),
      // A token in the query signs the lobby in (spec: the token is stored and removed from the address bar).
      '/lobby': async (origin) => `${origin}/lobby?access_token=${encodeURIComponent(await signIn())}`,
    };
    const scores: Scores = { deployed: { '/login': [], '/lobby': [] }, http1: { '/login': [], '/lobby': [] } };
    const settings = new Set<string>();
    // Interleaved (each route over each transport, then again), so a slow stretch of the machine
    // hits all of them. A fresh Chromium (and profile) per run: a lobby run's stored token must not
    // send the next /login run to the lobby.
    for (let run = 1; run <= LIGHTHOUSE_RUNS; run++) {
      for (const transport of TRANSPORTS) {
        for (const name of ROUTES) {
          const measure = async () => {
            // The deployed front's certificate is self-signed (tls-front.ts).
            const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: ['--headless=new', ...CHROMIUM_ARGS, ...(transport === 'deployed' ? ['--ignore-certificate-errors'] : [])] });
            try {
              return await lighthouse(await urls[name](origins[transport]), { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], formFactor: 'mobile', screenEmulation: { mobile: true, width: 412, height: 823, deviceScaleFactor: 1.75, disabled: false } });
            } finally {
              await chrome.kill();
            }
          };
          let result = await measure();
          // Lighthouse's own trace recording sometimes fails on a busy host (NO_NAVSTART: no
          // navigation in the trace); that says nothing about the page, so the run is made again
          // (once, printed). Anything else, NO_FCP included, counts as it is.
          const toolError = result?.lhr.runtimeError?.code;
          const label = `run ${run} ${transport.padEnd(8)} ${name.padEnd(8)}`;
          if (toolError && TRACE_RECORDING_ERRORS.has(toolError)) {
            console.log(`  ${label} Lighthouse could not record the trace (${toolError}): run again`);
            result = await measure();
          }
          const lanternDir = process.env.BENCH_WEB_LANTERN;
          if (lanternDir) {
            fs.mkdirSync(lanternDir, { recursive: true });
            fs.writeFileSync(path.join(lanternDir, `run-${run}-${transport}${name.replaceAll('/', '-')}.txt`), lanternTimings());
          }
          const score = result?.lhr.categories.performance?.score;
          const endedOn = result ? new URL(result.lhr.finalDisplayedUrl).pathname : 'no result';
          if (result) settings.add(describeSettings(result.lhr.configSettings as Parameters<typeof describeSettings>[0]));
          scores[transport][name].push(typeof score === 'number' && endedOn.startsWith(name) ? Math.round(score * 100) : null);
          const shown = typeof score === 'number' ? Math.round(score * 100) : 'n/a';
          console.log(`  ${label} ${shown}${endedOn.startsWith(name) ? '' : ` (ended on ${endedOn}: not counted)`}${result?.lhr.runtimeError ? ` (${result.lhr.runtimeError.code})` : ''}`);
        }
      }
    }
    return { scores, settings: [...settings] };
  } catch (error) {
    return { error: String(error) };
  } finally {
    await front?.stop();
    if (product) {
      product.kill('SIGINT');
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
  }
}
