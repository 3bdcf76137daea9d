/** What the server benchmarks share: a scratch folder, a server config inside it, percentiles, a table. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';

/** A fresh folder for one benchmark run; PostgreSQL (its own system user as root) must reach it. */
export function benchDir(name: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `reel-bench-${name}-`));
  fs.chmodSync(dir, 0o755);
  return dir;
}

/** The server's config with its data, secret and (absent) web app inside the benchmark's folder. */
export function benchConfig(dir: string) {
  const config = loadConfig();
  config.dataDir = path.join(dir, 'data');
  config.settingsFile = path.join(config.dataDir, 'Settings.json');
  config.jwtSecret = crypto.randomBytes(32).toString('hex');
  config.webDistDir = path.join(dir, 'no-web');
  return config;
}

/** The nearest-rank percentile of an ascending list (0 for an empty one). */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Prints rows of equal keys as an aligned table, the first column left-aligned. */
export function printTable(rows: Record<string, string>[]) {
  const keys = Object.keys(rows[0]!);
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => r[k]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(keys));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(keys.map((k) => r[k]!)));
}
