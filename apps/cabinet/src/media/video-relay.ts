/**
 * A loopback UDP hop for one machine's video, for an ffmpeg whose VP8 RTP carries 7-bit picture
 * IDs (ffmpeg-probe.ts `shortPictureIds`): ffmpeg sends its RTP and RTCP here, each RTP packet goes
 * on to the stream's target with the picture ID widened to 15 bits (vp8-picture-id.ts), RTCP goes
 * where ffmpeg would have sent it (the target port + 1). One relay lives as long as its machine's
 * stream, across encoder runs, so the picture IDs count on across restarts too.
 *
 * The sockets live in one worker thread shared by the process's relays (relay-thread.ts): the
 * packets of a build that needs the hop then wait for no render or garbage collection of the
 * cabinet's main thread, as those of a build that sends straight to the media process do not.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../worker-thread.js';
import type { RelayReply, RelayRequest, RelayTarget } from './relay-messages.js';

type Waiter = (reply: RelayReply) => void;

/**
 * The worker thread, started with the first relay and kept (unreferenced) for the next: a machine
 * joined cold then does not wait for a thread to start.
 */
class RelayThread {
  private static current: RelayThread | null = null;
  private readonly worker: Worker;
  private readonly waiters = new Map<number, Waiter[]>();

  private constructor() {
    this.worker = startWorker(new URL(`./relay-thread${extension()}`, import.meta.url).href);
    // The relays do not keep the cabinet process alive.
    this.worker.unref();
    this.worker.on('message', (reply: RelayReply) => this.waiters.get(reply.id)?.shift()?.(reply));
    const ended = (message: string) => {
      for (const [id, waiting] of this.waiters) for (const w of waiting.splice(0)) w({ op: 'failed', id, message });
      // The next relay starts a new thread.
      if (RelayThread.current === this) RelayThread.current = null;
    };
    this.worker.on('error', (error) => ended(error.message));
    this.worker.on('exit', (code) => ended(`the relay thread exited with code ${code}`));
  }

  static get(): RelayThread {
    RelayThread.current ??= new RelayThread();
    return RelayThread.current;
  }

  send(request: RelayRequest): void {
    this.worker.postMessage(request);
  }

  ask(request: RelayRequest): Promise<RelayReply> {
    return new Promise((resolve) => {
      const waiting = this.waiters.get(request.id) ?? [];
      waiting.push(resolve);
      this.waiters.set(request.id, waiting);
      this.send(request);
    });
  }
}

/** This module's own extension: `.ts` from source (tsx, vitest), `.js` once compiled. */
function extension(): string {
  return import.meta.url.endsWith('.ts') ? '.ts' : '.js';
}

let nextId = 1;

/** Starts the relays' thread ahead of the first relay (the cabinet does when its ffmpeg needs one). */
export function prepareVideoRelays(): void {
  RelayThread.get();
}

export class VideoRelay {
  private closed = false;

  private constructor(
    private readonly thread: RelayThread,
    private readonly id: number,
    private readonly port: number,
  ) {}

  static async open(target: RelayTarget): Promise<VideoRelay> {
    const thread = RelayThread.get();
    const id = nextId++;
    const reply = await thread.ask({ op: 'open', id, target });
    if (reply.op !== 'opened') {
      throw new Error(`video relay did not open: ${reply.op === 'failed' ? reply.message : reply.op}`);
    }
    return new VideoRelay(thread, id, reply.port);
  }

  /** Where ffmpeg sends (RTP and RTCP alike). */
  get via(): RelayTarget {
    return { host: '127.0.0.1', port: this.port };
  }

  /** A new stream_start may name another ingest; the picture IDs count on. */
  retarget(target: RelayTarget): void {
    if (!this.closed) this.thread.send({ op: 'retarget', id: this.id, target });
  }

  /** RTP packets passed on so far. */
  async packets(): Promise<number> {
    if (this.closed) return 0;
    const reply = await this.thread.ask({ op: 'count', id: this.id });
    return reply.op === 'count' ? reply.packets : 0;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.thread.send({ op: 'close', id: this.id });
  }
}
