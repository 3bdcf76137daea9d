/**
 * A process entry point stops once: the first SIGINT or SIGTERM (or a call of `shutdown`, for a
 * closed stdin or a failed start) runs its `stop` and exits; a second signal while it stops, as a
 * supervisor's SIGTERM after a Ctrl-C, must not start a second stop over the first.
 */
export interface StopOnSignal {
  /** Stops for `reason` (a signal's name, or a cause of one's own) and exits with `exitCode`; at most once. */
  shutdown(reason: string, exitCode?: number): Promise<void>;
  /** Whether a stop has begun. */
  readonly stopping: boolean;
  /** Removes the signal handlers (for tests). */
  dispose(): void;
}

interface StopOnSignalOptions {
  signals?: readonly NodeJS.Signals[];
  /** How the process ends once stopped (tests replace it). */
  exit?: (code: number) => void;
}

export function stopOnSignal(stop: (reason: string) => Promise<void>, options: StopOnSignalOptions = {}): StopOnSignal {
  const { signals = ['SIGINT', 'SIGTERM'], exit = (code: number) => process.exit(code) } = options;
  let stopping = false;
  const shutdown = async (reason: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    await stop(reason);
    exit(exitCode);
  };
  const handlers = signals.map((signal) => [signal, () => void shutdown(signal)] as const);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  return {
    shutdown,
    get stopping() {
      return stopping;
    },
    dispose() {
      for (const [signal, handler] of handlers) process.off(signal, handler);
    },
  };
}
