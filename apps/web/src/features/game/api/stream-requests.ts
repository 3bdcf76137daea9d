/**
 * The game channel's requests for a fresh stream grant (grants are short-lived): one `stream {}`
 * at a time; one unanswered in time makes the channel join again, whose `joined` carries a grant.
 * Every caller waiting gets the next grant, however it came; none is ever rejected (a waiting
 * video simply keeps waiting).
 */
import type { StreamGrant } from '@reel/protocol/client';
import { STREAM_REQUEST_TIMEOUT_MS } from './channel-status';

export class StreamRequests {
  private readonly waiters: ((grant: StreamGrant) => void)[] = [];
  private pending = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly channel: { askForStream: () => void; rejoin: () => void }) {}

  /** A promise of the next grant; asks for one now when the channel can (`canAsk`). */
  next(canAsk: boolean): Promise<StreamGrant> {
    const promise = new Promise<StreamGrant>((resolve) => this.waiters.push(resolve));
    if (canAsk) this.ask();
    return promise;
  }

  /** The server answered (a grant, or a join that carries one or not): nothing is pending now. */
  answered(grant?: StreamGrant): void {
    this.pending = false;
    clearTimeout(this.timer);
    if (grant) for (const resolve of this.waiters.splice(0)) resolve(grant);
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  private ask(): void {
    if (this.pending) return;
    this.pending = true;
    this.channel.askForStream();
    this.timer = setTimeout(() => {
      if (!this.pending) return;
      this.pending = false;
      this.channel.rejoin();
    }, STREAM_REQUEST_TIMEOUT_MS);
  }
}
