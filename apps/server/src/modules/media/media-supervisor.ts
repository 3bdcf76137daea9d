/**
 * Starts the media process (apps/media) as a child, hands it the shared secret by env, waits for
 * its `ready` line, and restarts it with backoff if it dies. Video never runs on the API
 * server's event loop.
 */
import { type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Backoff, spawnTied, stopChild } from '@reel/process';
import type { IceServer, MediaBackend, MediaProcessEvent } from '@reel/protocol';
import { REPO_ROOT } from '../../lib/paths.js';

export interface MediaSupervisorOptions {
  /** Shared secret for grants and the control API; generated per run when omitted. */
  secret?: string;
  backend?: MediaBackend;
  iceServers?: IceServer[];
  /** Extra ICE host addresses for werift (e.g. ['127.0.0.1'] for a browser on this machine). */
  iceHosts?: string[];
  controlPort?: number;
  /** Path of the media process' entry (default: apps/media/src/main.ts in this checkout). */
  entry?: string;
  env?: NodeJS.ProcessEnv;
  log?: (msg: string) => void;
}

/** MEDIA_READY_TIMEOUT_MS: benches on a machine loaded by other work need longer than 20 s. */
const READY_TIMEOUT_MS = Number(process.env.MEDIA_READY_TIMEOUT_MS) || 20_000;

/**
 * Started by path, not resolved as a package: the server shares no code with apps/media (what both
 * need is in packages/protocol and packages/media-control), it only runs it.
 */
function defaultMediaEntry(): string {
  return path.join(REPO_ROOT, 'apps/media/src/main.ts');
}

export class MediaSupervisor extends EventEmitter<{
  event: [MediaProcessEvent];
  ready: [{ controlUrl: string }];
  exit: [number | null];
}> {
  readonly secret: string;
  private child: ChildProcess | null = null;
  private controlPort: number | null = null;
  private stopped = false;
  private readonly restarts = new Backoff({ initialMs: 500, maxMs: 10_000 });
  private readyWaiters: ((url: string) => void)[] = [];

  constructor(private readonly opts: MediaSupervisorOptions = {}) {
    super();
    this.secret = opts.secret ?? randomBytes(32).toString('base64url');
  }

  get controlUrl(): string | null {
    return this.controlPort === null ? null : `http://127.0.0.1:${this.controlPort}`;
  }
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the process and resolves with the control URL once it is ready. */
  start(): Promise<string> {
    this.stopped = false;
    if (!this.child) this.spawn();
    return this.whenReady();
  }

  whenReady(): Promise<string> {
    if (this.controlUrl) return Promise.resolve(this.controlUrl);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        // Slow, not broken (a loaded machine): the server exits as a crash and npm start tries again.
        () => reject(Object.assign(new Error('media process did not become ready'), { transient: true })),
        READY_TIMEOUT_MS,
      );
      this.readyWaiters.push((url) => {
        clearTimeout(timer);
        resolve(url);
      });
    });
  }

  private spawn(): void {
    const entry = this.opts.entry ?? defaultMediaEntry();
    // Tied to this process: a server killed with -9 must not leave a media process holding its ports.
    const child = spawnTied(process.execPath, ['--import', 'tsx', entry], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: {
        ...process.env,
        ...this.opts.env,
        MEDIA_SECRET: this.secret,
        MEDIA_BACKEND: this.opts.backend ?? 'werift',
        MEDIA_ICE_SERVERS: JSON.stringify(this.opts.iceServers ?? []),
        MEDIA_ICE_HOSTS: (this.opts.iceHosts ?? []).join(','),
        MEDIA_CONTROL_PORT: String(this.opts.controlPort ?? this.controlPort ?? 0),
      },
    });
    this.child = child;
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let event: MediaProcessEvent;
      try {
        event = JSON.parse(line) as MediaProcessEvent;
      } catch {
        this.opts.log?.(`media: ${line}`);
        return;
      }
      if (event.event === 'ready') {
        this.controlPort = event.data.controlPort;
        this.restarts.reset();
        const url = this.controlUrl!;
        for (const w of this.readyWaiters.splice(0)) w(url);
        this.emit('ready', { controlUrl: url });
      }
      this.emit('event', event);
    });
    child.on('exit', (code) => {
      this.child = null;
      this.emit('exit', code);
      if (this.stopped) return;
      const delayMs = this.restarts.next();
      this.opts.log?.(`media process exited (${code}); restarting in ${delayMs} ms`);
      // Keep the same port so ingest ports handed out before can be re-created at the same URL.
      setTimeout(() => !this.stopped && this.spawn(), delayMs);
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const child = this.child;
    if (child) await stopChild(child, 'SIGTERM', 3000);
  }
}
