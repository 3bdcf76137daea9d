/**
 * `npm run bench`: every benchmark, one after another (they share two cores, so never at once).
 * Each prints its own table and judges its figures against its goals (a Verdict), exiting non-zero
 * on a miss; this prints a summary: `goals met` for exit 0, `MISSED (exit N)` otherwise, and a bench
 * killed by a signal (or that could not be started) counts as failed too.
 * `npm run bench -- ledger video` runs only the named ones. Like `npm test`, it first installs the
 * Debian packages the selected benchmarks need when they are missing and it runs as root; otherwise
 * it names the packages to install, and stops when one the benchmarks cannot run without is missing.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePatchedJanus } from '../apps/media/src/janus/janus-build.js';
import { buildWeb, webBuildIsStale } from './web-build.js';
import { ensureSystemPackages } from './system-packages.js';
import { BENCHES } from './bench-list.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const only = process.argv.slice(2);
const selected = BENCHES.filter((b) => only.length === 0 || only.includes(b.name));
const unknown = only.filter((name) => !BENCHES.some((b) => b.name === name));
if (unknown.length) {
  console.error(`unknown benchmark ${unknown.join(', ')}; known: ${BENCHES.map((b) => b.name).join(', ')}`);
  process.exit(2);
}
const needed = [...new Map(selected.flatMap((b) => b.packages ?? []).map((p) => [p.pkg, p])).values()];
ensureSystemPackages(needed, `the ${selected.map((b) => b.name).join(', ')} benchmark${selected.length > 1 ? 's' : ''}`);
if (webBuildIsStale()) buildWeb();
// The video benches run the scale path too: with the NACK-fixed Janus when it can be built.
if (selected.some((b) => b.name === 'video' || b.name === 'network' || b.name === 'fanout')) await ensurePatchedJanus();
const summary: string[] = [];
let failures = 0;
for (const bench of selected) {
  if (!fs.existsSync(path.join(root, bench.file))) {
    summary.push(`${bench.name.padEnd(8)}    -    FAILED (missing: ${bench.file})`);
    failures++;
    continue;
  }
  console.log(`\n### ${bench.name}: ${bench.what}\n`);
  const started = Date.now();
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, bench.file)], { cwd: root, stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const outcome = result.error
    ? `FAILED (not started: ${result.error.message})`
    : result.signal
      ? `FAILED (killed by ${result.signal})`
      : result.status === 0
        ? 'goals met'
        : `MISSED (exit ${result.status})`;
  if (outcome !== 'goals met') failures++;
  summary.push(`${bench.name.padEnd(8)} ${seconds.padStart(4)} s  ${outcome}`);
}
console.log(`\n### summary\n${summary.join('\n')}`);
console.log(failures ? `\n${failures} of ${selected.length} benchmarks missed a goal or failed` : `\nall ${selected.length} benchmarks met their goals`);
process.exit(failures ? 1 : 0);
