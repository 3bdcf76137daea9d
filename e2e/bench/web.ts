/**
 * Web app benchmark (`npm run bench`, or `tsx e2e/bench/web.ts`):
 *  1. bundle sizes per route, gzip, from the Vite build manifest (budget: /login ≤ 160 KB, all ≤ 450 KB);
 *  2. Lighthouse performance in mobile emulation (its default simulated throttling, printed from the
 *     result's configSettings) for /login and /lobby against the real product (web-lighthouse.ts):
 *     LIGHTHOUSE_RUNS runs per route, interleaved, all printed; the median of the deployed product
 *     (behind HAProxy with TLS and HTTP/2) judged (goal ≥ 95 on both routes), the plain HTTP/1.1
 *     figures printed beside it;
 *  3. lobby stress: 2,000 machines and 200 status pushes a second, no main-thread task over 50 ms and
 *     ≤ 1,500 DOM nodes. The stress test measures the front end alone: the built app is served
 *     statically and the API and notification socket are faked inside the page (Playwright routes).
 * BENCH_BASE_URL points Lighthouse at a running product (plain HTTP); otherwise one is started on
 * port 8093. BENCH_WEB_LANTERN=<dir> writes, per Lighthouse run, the simulated timing of every
 * request and main-thread task behind its paint metrics (Lantern's replay, which the score is made
 * of): what to read before changing what a page loads first (docs/web.md, start-up speed).
 * Every goal goes through a Verdict: the process exits 1 on a miss or on a figure it could not measure.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.js';
import { Verdict } from '@reel/process';
import { LIGHTHOUSE_RUNS, ROUTES, TRANSPORTS, TRANSPORT_NAMES, lighthouseScores } from './web-lighthouse.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.join(root, 'apps/web/dist');

const BUDGET_LOGIN_KB = 160;
const BUDGET_ALL_KB = 450;
const STRESS_MACHINES = 2000;
const STRESS_UPDATES_PER_S = 200;
const STRESS_DURATION_MS = 10_000;
const LONG_TASK_LIMIT_MS = 50;
const DOM_NODE_LIMIT = 1500;
const LIGHTHOUSE_GOAL = 95;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? NaN : sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const gzipKb = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length / 1024;

function closure(manifest: Manifest, keys: string[]): Set<string> {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return files;
}

function bundleReport() {
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry)!;
  const routeKey = (name: string) => Object.keys(manifest).find((key) => key.endsWith(`src/app/routes/${name}.tsx`))!;
  const layoutKey = Object.keys(manifest).find((key) => key.endsWith('src/app/layouts/app-layout.tsx'))!;
  const overlaysKey = Object.keys(manifest).find((key) => key.endsWith('src/app/signed-in-overlays.tsx'))!;
  const trKey = Object.keys(manifest).find((key) => key.endsWith('src/locales/tr.ts'))!;
  const entry = closure(manifest, [entryKey, trKey]);
  const sum = (files: Iterable<string>) => [...files].filter((file) => file.endsWith('.js')).reduce((total, file) => total + gzipKb(file), 0);
  const routes: [string, string[]][] = [
    ['/login', [routeKey('login')]],
    ['/lobby', [routeKey('lobby'), layoutKey, overlaysKey]],
    ['/profile', [routeKey('profile'), layoutKey, overlaysKey]],
    ['/transactions', [routeKey('history'), layoutKey, overlaysKey]],
    ['/game/:id/:name', [routeKey('game'), overlaysKey]],
  ];
  const rows = routes.map(([route, keys]) => {
    const own = closure(manifest, keys);
    const initial = new Set([...entry, ...own]);
    return { route, ownKb: sum([...own].filter((file) => !entry.has(file))), initialKb: sum(initial) };
  });
  const allJs = fs.readdirSync(path.join(dist, 'assets')).filter((file) => file.endsWith('.js'));
  const allKb = allJs.reduce((total, file) => total + gzipKb(`assets/${file}`), 0);
  const css = fs.readdirSync(path.join(dist, 'assets')).filter((file) => file.endsWith('.css'));
  const cssKb = css.reduce((total, file) => total + gzipKb(`assets/${file}`), 0);
  return { entryKb: sum(entry), rows, allKb, cssKb };
}

function staticServer(): Promise<{ url: string; close: () => void }> {
  const types: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.svg': 'image/svg+xml', '.json': 'application/json' };
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    let file = path.join(dist, decodeURIComponent(url.pathname));
    if (!file.startsWith(dist) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) file = path.join(dist, 'index.html');
    response.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(response);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${port}`, close: () => server.close() });
    }),
  );
}

function fakeToken() {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'HS256' })}.${encode({ id: 1, sub: '1', name: 'Bench', lastname: 'Player', username: 'bench', email: '', group: 'player', permissions: [145], type: 'player', role: ['user'], exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`;
}

async function lobbyStress() {
  const server = await staticServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    const token = fakeToken();
    const statuses = ['playing', 'available', 'waiting', 'reserved', 'not_available'] as const;
    const machines = Array.from({ length: STRESS_MACHINES }, (_, index) => ({
      id: index + 1,
      name: `Machine ${index + 1}`,
      status: statuses[index % 5],
      brand: 'Stress',
      brandId: 1,
      image: null,
      reservation: false,
      hot: index % 17 === 0,
      videoType: 'screen',
      bands: [],
    }));
    const lobby = [{ brand: { id: 1, name: 'Stress', jackpot: '250000,50000,10000', machineCount: STRESS_MACHINES, image: null }, machines }];
    const session = { status: true, code: 20000, token, pin_code: false, ip_address: '127.0.0.1', versions: 'bench', last_logon: null, last_logon_ip: null };
    await page.route('**/api/**', (route) => {
      const url = route.request().url();
      if (url.includes('/api/validate')) return route.fulfill({ json: session });
      if (url.includes('/api/machine/all')) return route.fulfill({ json: lobby });
      if (url.includes('/api/machine/brands')) return route.fulfill({ json: lobby.map((group) => group.brand) });
      if (url.includes('/api/player/balance')) return route.fulfill({ json: { status: true, code: 20000, balance: 100000, cash: 100000, credit: 0, bonus: 0, discount: 0, currency: 'TRY' } });
      if (url.includes('/api/player/profile')) return route.fulfill({ json: { status: true, code: 20000, settings: {}, shortcuts: [] } });
      return route.fulfill({ json: { status: true, code: 20000 } });
    });
    // The app asks the server's IP policy before anything else (docs/spec-decisions.md).
    await page.route('**/check', (route) => route.fulfill({ json: { status: 1, code: 1, ip: '127.0.0.1', country: 'LOCAL' } }));
    await page.routeWebSocket('**/ws/notifications**', (socket) => {
      let seq = 0;
      let timer: ReturnType<typeof setInterval> | undefined;
      socket.onMessage(() => {
        if (timer) return;
        // 200 updates a second, sent in 10 ms slices of two, like a busy casino floor.
        timer = setInterval(() => {
          for (let i = 0; i < STRESS_UPDATES_PER_S / 100; i++) {
            const id = 1 + Math.floor(Math.random() * STRESS_MACHINES);
            socket.send(JSON.stringify({ event: 'machine', data: { id, status: statuses[Math.floor(Math.random() * 5)] }, seq: ++seq }));
          }
        }, 10);
      });
      socket.onClose(() => clearInterval(timer));
    });
    await page.addInitScript((value) => {
      localStorage.setItem('jwt_access_token', value);
      localStorage.setItem('i18nextLng', 'en');
    }, token);
    await page.goto(`${server.url}/lobby/1/stress`);
    await page.getByRole('article', { name: 'Machine 1', exact: true }).waitFor();
    const result = await page.evaluate(
      async ({ durationMs }) => {
        const longTasks: number[] = [];
        const observer = new PerformanceObserver((list) => list.getEntries().forEach((entry) => longTasks.push(entry.duration)));
        observer.observe({ type: 'longtask' });
        let maxNodes = 0;
        const started = performance.now();
        // Scroll through the list while the updates stream in.
        while (performance.now() - started < durationMs) {
          window.scrollBy(0, 400);
          if (window.scrollY + window.innerHeight >= document.body.scrollHeight - 10) window.scrollTo(0, 0);
          maxNodes = Math.max(maxNodes, document.getElementsByTagName('*').length);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        observer.disconnect();
        const counts = [...document.querySelectorAll('[data-testid^="count-"]')].map((element) => element.textContent);
        return { longTasks, maxNodes, counts };
      },
      { durationMs: STRESS_DURATION_MS },
    );
    return result;
  } finally {
    await browser.close();
    server.close();
  }
}


async function main() {
  if (!fs.existsSync(path.join(dist, '.vite/manifest.json'))) {
    console.error('apps/web/dist is missing: run npm run build first (npm run bench does it).');
    process.exit(1);
  }
  const bundles = bundleReport();
  console.log('\nWeb bundle sizes (JS, gzip -9):');
  console.log(`  app entry (shell, router, i18n, tr texts)  ${bundles.entryKb.toFixed(1)} KB`);
  for (const row of bundles.rows) console.log(`  ${row.route.padEnd(18)} initial ${row.initialKb.toFixed(1).padStart(6)} KB   route-only ${row.ownKb.toFixed(1).padStart(5)} KB`);
  console.log(`  whole app JS       ${bundles.allKb.toFixed(1)} KB   CSS ${bundles.cssKb.toFixed(1)} KB`);
  const loginKb = bundles.rows[0]!.initialKb;
  console.log(`  budget: /login initial JS ${verdict.check('/login initial JS', loginKb, { max: BUDGET_LOGIN_KB, unit: 'KB' })}`);
  console.log(`  budget: whole app JS ${verdict.check('whole app JS', bundles.allKb, { max: BUDGET_ALL_KB, unit: 'KB' })}`);

  const stress = await lobbyStress();
  const longest = Math.max(0, ...stress.longTasks);
  console.log(`\nLobby stress (${STRESS_MACHINES} machines, ${STRESS_UPDATES_PER_S} updates/s, ${STRESS_DURATION_MS / 1000} s while scrolling):`);
  console.log(`  long tasks (main-thread tasks over 50 ms): ${stress.longTasks.length}, longest ${verdict.check('lobby stress longest task', longest, { max: LONG_TASK_LIMIT_MS, unit: 'ms' })}`);
  console.log(`  DOM nodes: max ${verdict.check('lobby stress DOM nodes', stress.maxNodes, { max: DOM_NODE_LIMIT })}`);
  console.log(`  live counts at the end: ${stress.counts.join(' | ')}`);

  if (process.env.BENCH_SKIP_LIGHTHOUSE) {
    verdict.missing('Lighthouse', 'BENCH_SKIP_LIGHTHOUSE is set');
    return;
  }
  console.log(`\nLighthouse performance (mobile emulation), ${LIGHTHOUSE_RUNS} runs per route and transport, interleaved:`);
  const lighthouseResult = await lighthouseScores(root);
  if ('error' in lighthouseResult) {
    console.log(`  not measured: ${lighthouseResult.error}`);
    verdict.missing('Lighthouse', lighthouseResult.error);
    return;
  }
  console.log(`  throttling (configSettings): ${lighthouseResult.settings.join(' | ') || 'unknown'}`);
  if (lighthouseResult.settings.length > 1) console.log('  NOTE: the runs did not all use the same settings');
  for (const transport of TRANSPORTS) {
    console.log(`  ${TRANSPORT_NAMES[transport]}${transport === 'deployed' ? ' (judged):' : ' (no goal):'}`);
    for (const name of ROUTES) {
      const all = lighthouseResult.scores[transport][name];
      const measured = all.filter((score): score is number => score !== null);
      const what = `Lighthouse ${name} ${transport}`;
      const mid = transport === 'deployed' ? verdict.check(`${what} median performance`, median(measured), { min: LIGHTHOUSE_GOAL }) : String(median(measured));
      console.log(`    ${name.padEnd(8)} runs ${all.map((score) => score ?? 'n/a').join(', ')}; median ${mid}; ${verdict.samples(`${what} (runs that scored on ${name})`, measured.length, LIGHTHOUSE_RUNS, all.length - measured.length)}`);
    }
  }
}

const verdict = new Verdict('web');
main().then(
  () => {
    verdict.finish();
    process.exit(process.exitCode ?? 0);
  },
  (error) => {
    console.error(error);
    verdict.missing('web benchmark', String(error));
    verdict.finish();
    process.exit(1);
  },
);
