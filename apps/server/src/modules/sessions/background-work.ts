/**
 * The session rooms' background work: cabinet events and their follow-ups (a hand pay, a lobby
 * update) run without anyone awaiting them. A failure is logged here, never thrown at the agent
 * hub, and `drain` waits for all of it (tests, shutdown). The session manager owns one and hands
 * it down; no room calls back up to the manager for this.
 */

/** PostgreSQL's admin shutdown, crash shutdown and "cannot connect now". */
const SHUTDOWN_CODES = new Set(['57P01', '57P02', '57P03']);

export class BackgroundWork {
  private readonly inFlight = new Set<Promise<unknown>>();
  private shuttingDown = false;

  readonly warn = (error: unknown, where: string): void => {
    // The database is going away with the rest: nothing is lost, the next start recovers.
    if (this.shuttingDown || SHUTDOWN_CODES.has((error as { code?: string }).code ?? '')) return;
    console.warn(`[sessions] ${where}: ${(error as Error).message}`);
  };

  /** Runs `work` in the background; a failure is logged, and `drain()` waits for it. */
  readonly track = (work: Promise<unknown>, where: string): void => {
    const tracked = work.catch((error) => this.warn(error, where)).finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  };

  /** Resolves once every piece of work tracked so far has finished. */
  async drain() {
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }

  /** Ctrl-C reaches the database and the cabinets too: from here on their failures are expected. */
  beginShutdown() {
    this.shuttingDown = true;
  }
}
