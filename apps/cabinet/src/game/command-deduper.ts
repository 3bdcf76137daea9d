import type { AgentCommand, CommandResult } from '@reel/protocol';

/**
 * Runs each commandId at most once. A duplicate that arrives while the first run is still going
 * waits for the same promise; one that arrives later gets the stored answer marked `duplicate`.
 * Commands past their `expiresAtMs` are answered `stale` without running (and that answer is
 * remembered too, so a late retry cannot run it either).
 */
export class CommandDeduper {
  private readonly results = new Map<string, Promise<CommandResult>>();

  constructor(
    private readonly capacity = 2000,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /**
   * `retryRejected`: a rejection of this command is not its final answer (it moved nothing, and the
   * same command sent again later, e.g. a cash out once a game has landed, must run then).
   */
  run(
    command: AgentCommand,
    execute: () => Promise<CommandResult>,
    creditsCents: () => number,
    retryRejected = false,
  ): Promise<CommandResult> {
    const existing = this.results.get(command.commandId);
    if (existing) return existing.then((r) => ({ ...r, duplicate: true }));
    let promise: Promise<CommandResult>;
    if (command.expiresAtMs !== undefined && command.expiresAtMs < this.nowMs()) {
      promise = Promise.resolve({
        commandId: command.commandId,
        type: command.type,
        outcome: 'stale',
        reason: 'expired',
        creditsCents: creditsCents(),
      });
    } else {
      promise = execute().catch((err: unknown): CommandResult => ({
        commandId: command.commandId,
        type: command.type,
        outcome: 'rejected',
        reason: err instanceof Error ? err.message : 'failed',
        creditsCents: creditsCents(),
      }));
    }
    // Oldest first (Map keeps insertion order): forgetting very old ids bounds memory; the server
    // never retries a command that old.
    this.remember(command.commandId, promise);
    if (retryRejected) {
      void promise.then((result) => {
        if (result.outcome === 'rejected' && this.results.get(command.commandId) === promise) this.results.delete(command.commandId);
      });
    }
    return promise;
  }

  has(commandId: string): boolean {
    return this.results.has(commandId);
  }

  /**
   * Answers restored from the critical memory after a restart: a command the server sends again
   * gets its first answer instead of running a second time.
   */
  preload(entries: Iterable<[string, CommandResult]>): void {
    for (const [commandId, result] of entries) this.remember(commandId, Promise.resolve(result));
  }

  /** A command already under way outside `run` (a game resumed after a restart). */
  track(commandId: string, running: Promise<CommandResult>): void {
    this.remember(commandId, running);
  }

  private remember(commandId: string, promise: Promise<CommandResult>) {
    this.results.set(commandId, promise);
    while (this.results.size > this.capacity) this.results.delete(this.results.keys().next().value!);
  }
}
