/**
 * The whole product as `npm start` runs it (scripts/start.ts), in its own process group on a
 * throw-away data folder, and the kill -9 of each of its parts: the server, the cabinets, the
 * media process, PostgreSQL, or the whole group (which is then started again).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { KillTarget } from './report.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');


export class Product {
  private group: ChildProcess | null = null;
  readonly baseUrl: string;
  readonly logFile: string;

  constructor(
    readonly port: number,
    readonly dataDir: string,
    private readonly env: NodeJS.ProcessEnv = {},
  ) {
    this.baseUrl = `http://127.0.0.1:${port}`;
    this.logFile = `${dataDir}.log`;
  }

  start(): void {
    const out = fs.openSync(this.logFile, 'a');
    this.group = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/start.ts')], {
      cwd: root,
      detached: true,
      stdio: ['ignore', out, out],
      env: { ...process.env, PORT: String(this.port), DATA_DIR: this.dataDir, LOG_LEVEL: 'warn', ...this.env },
    });
    fs.closeSync(out);
  }

  async waitUp(timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      try {
        if ((await fetch(`${this.baseUrl}/check`)).ok) return;
      } catch {
        // down
      }
      await sleep(250);
    }
    throw new Error(`the product did not come back within ${timeoutMs / 1000} s (log: ${this.logFile})`);
  }

  get databaseUrl(): string {
    const port = fs.readFileSync(path.join(this.dataDir, 'pg.port'), 'utf8').trim();
    return `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  }

  private children(): { server?: number; cabinets?: number } {
    try {
      const record = JSON.parse(fs.readFileSync(path.join(this.dataDir, 'start.pid'), 'utf8')) as { children: number[] };
      return { server: record.children[0], cabinets: record.children[1] };
    } catch {
      return {};
    }
  }

  private pidOf(target: Exclude<KillTarget, 'everything'>): number | undefined {
    if (target === 'server' || target === 'cabinets') return this.children()[target];
    if (target === 'postgres') {
      try {
        return Number(fs.readFileSync(path.join(this.dataDir, 'pg/postmaster.pid'), 'utf8').split('\n')[0]) || undefined;
      } catch {
        return undefined;
      }
    }
    const server = this.children().server;
    if (!server) return undefined;
    try {
      const pids = execFileSync('pgrep', ['-P', String(server), '-f', 'apps/media/src/main.ts'], { encoding: 'utf8' }).trim().split('\n');
      return Number(pids[0]) || undefined;
    } catch {
      return undefined;
    }
  }

  /** kill -9 of one part; false when it was not running at that moment. */
  kill(target: KillTarget): boolean {
    if (target === 'everything') {
      if (!this.group?.pid) return false;
      try {
        process.kill(-this.group.pid, 'SIGKILL');
      } catch {
        return false;
      }
      this.group = null;
      return true;
    }
    const pid = this.pidOf(target);
    if (!pid) return false;
    try {
      process.kill(pid, 'SIGKILL');
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Overwrites a machine's critical memory file with garbage (its cabinet process is killed first,
   * so that no commit of its own replaces the garbage before its restart reads it).
   */
  async damageMemory(machineId: number): Promise<void> {
    this.kill('cabinets');
    await sleep(100);
    fs.writeFileSync(path.join(this.dataDir, 'cabinets', `machine-${machineId}.json`), 'damaged on purpose by the fault suite');
  }

  async stop(): Promise<void> {
    const pid = this.group?.pid;
    if (!pid) return;
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      return;
    }
    for (let i = 0; i < 100; i++) {
      try {
        process.kill(-pid, 0);
      } catch {
        break;
      }
      await sleep(100);
    }
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
    this.group = null;
  }
}
