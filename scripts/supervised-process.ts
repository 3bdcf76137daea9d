/**
 * One process of `npm start` (the server, the cabinets), kept running: a crash is logged and the
 * process restarted with exponential backoff (reset after it ran a while), so the product heals
 * without a person. Exit code 78 (EX_CONFIG) means "cannot start, a person must act": no restart.
 * Children are tied to this process (parent-death signal), so a kill -9 of `npm start` stops them.
 */
import type { ChildProcess } from 'node:child_process';
import { Backoff, CANNOT_START_EXIT_CODE, spawnTied, stopChild } from '@reel/process';

/** A process that ran this long is healthy again: its next crash restarts it at once. */
const HEALTHY_AFTER_MS = 60_000;

interface SupervisedProcessOptions {
  name: string;
  entry: string;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  log: (line: string) => void;
  /** Called once when the process exits with CANNOT_START_EXIT_CODE. */
  onCannotStart: () => void;
  /** Called after each (re)start, with the new pid known. */
  onStarted?: () => void;
}

export class SupervisedProcess {
  private child: ChildProcess | null = null;
  private stopping = false;
  private readonly backoff = new Backoff({ initialMs: 1_000, maxMs: 30_000 });
  private restartTimer: NodeJS.Timeout | null = null;
  restarts = 0;

  constructor(private readonly opts: SupervisedProcessOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }
  get running(): boolean {
    return this.child !== null;
  }

  start(): void {
    const startedAt = Date.now();
    const child = spawnTied(process.execPath, ['--import', 'tsx', this.opts.entry], {
      cwd: this.opts.cwd,
      stdio: 'inherit',
      env: { ...process.env, ...this.opts.env },
    });
    this.child = child;
    this.opts.onStarted?.();
    child.on('exit', (code, signal) => {
      this.child = null;
      if (this.stopping) return;
      if (code === CANNOT_START_EXIT_CODE) return this.opts.onCannotStart();
      if (Date.now() - startedAt > HEALTHY_AFTER_MS) this.backoff.reset();
      const delayMs = this.backoff.next();
      this.opts.log(`${this.opts.name} stopped unexpectedly (${signal ?? `exit code ${code}`}); restarting in ${delayMs / 1000} s`);
      this.restartTimer = setTimeout(() => {
        this.restartTimer = null;
        this.restarts++;
        this.start();
      }, delayMs);
    });
  }

  /** Asks the process to stop (SIGTERM), then kills it after `graceMs`. */
  async stop(graceMs = 8_000): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const child = this.child;
    if (child) await stopChild(child, 'SIGTERM', graceMs);
  }
}
