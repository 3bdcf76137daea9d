/**
 * The whole product started the way `npm start` starts it (scripts/start.ts: server, media process,
 * PostgreSQL, demo cabinets), on a port and a fresh data folder of its own, tied to this process
 * (a killed test run leaves no product behind). Its output is handed over line by line.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawnTied, stopChild } from '@reel/process';
import { REPO_ROOT } from './instances';

interface ProductOptions {
  port: number;
  dataDir: string;
  env?: NodeJS.ProcessEnv;
  /** Keys of the product's Settings.json (its data folder's), written before it starts. */
  settings?: Record<string, unknown>;
  /** Every line the product prints (stdout and stderr). */
  onLine?: (line: string) => void;
  startTimeoutMs?: number;
}

export interface RunningProduct {
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startProduct(options: ProductOptions): Promise<RunningProduct> {
  const { port, dataDir, env = {}, settings, onLine = () => {}, startTimeoutMs = 200_000 } = options;
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (settings) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'Settings.json'), JSON.stringify(settings));
  }
  const tail: string[] = [];
  const child = spawnTied(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/start.ts')], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, ...env },
  });
  for (const stream of [child.stdout!, child.stderr!]) {
    readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      tail.push(line);
      if (tail.length > 40) tail.shift();
      onLine(line);
    });
  }
  const url = `http://127.0.0.1:${port}`;
  const product: RunningProduct = {
    url,
    port,
    dataDir,
    child,
    // start.ts stops its cabinets, server, media and PostgreSQL on SIGTERM.
    stop: () => stopChild(child, 'SIGTERM', 20_000),
  };
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the product on port ${port} exited (${child.exitCode ?? child.signalCode}):\n${tail.join('\n')}`);
    if (await fetch(`${url}/check`).then((r) => r.ok, () => false)) return product;
    if (Date.now() > deadline) {
      await product.stop();
      throw new Error(`the product on port ${port} did not answer /check within ${startTimeoutMs / 1000} s:\n${tail.join('\n')}`);
    }
    await sleep(250);
  }
}
