/**
 * `npm run bench`: every benchmark, one after another (they share two cores, so never at once).
 * Each prints its own table; this prints a summary of which ran and how long they took.
 * `npm run bench -- ledger video` runs only the named ones.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWeb, webBuildIsStale } from './web-build.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const BENCHES = [
  { name: 'ledger', file: 'apps/server/bench/ledger.ts', what: 'money moves per second vs raw SQL' },
  { name: 'login', file: 'apps/server/bench/login.ts', what: 'sign-in latency, balance requests per second' },
  { name: 'web', file: 'e2e/bench/web.ts', what: 'bundle sizes, Lighthouse, lobby stress' },
  { name: 'video', file: 'e2e/bench/video.ts', what: 'glass-to-glass latency, first frame, spin to motion, CPU' },
  { name: 'play', file: 'e2e/bench/play.ts', what: 'lobby click to first frame, spin to motion, players per machine' },
  { name: 'cluster', file: 'apps/server/bench/cluster.ts', what: 'three servers: notification fan-out, command round trip across servers, failover' },
  { name: 'network', file: 'e2e/bench/network.ts', what: 'video under packet loss and blackouts (fault rig, needs root), werift vs Janus' },
];

const only = process.argv.slice(2);
const selected = BENCHES.filter((b) => only.length === 0 || only.includes(b.name));
if (webBuildIsStale()) buildWeb();
const summary: string[] = [];
for (const bench of selected) {
  if (!fs.existsSync(path.join(root, bench.file))) {
    summary.push(`${bench.name.padEnd(8)} missing (${bench.file})`);
    continue;
  }
  console.log(`\n### ${bench.name}: ${bench.what}\n`);
  const started = Date.now();
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, bench.file)], { cwd: root, stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  summary.push(`${bench.name.padEnd(8)} ${result.status === 0 ? 'ok    ' : 'FAILED'} ${seconds.padStart(4)} s`);
}
console.log(`\n### summary\n${summary.join('\n')}`);
process.exit(summary.some((line) => / FAILED|missing/.test(line)) ? 1 : 0);
