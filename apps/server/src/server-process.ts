/**
 * The life of a server process (`npm start`'s server and each cluster server): start, stop once on
 * SIGINT/SIGTERM, and a start that fails says why in one line and exits with EX_CONFIG (78), which
 * `npm start` takes as "do not restart, a person must act"; a start too slow on a loaded machine
 * (startup-error.ts `isTransientStartupError`) exits 1 instead, a crash that npm start restarts.
 */
import { CANNOT_START_EXIT_CODE, stopOnSignal } from '@reel/process';
import { loadConfig, type Config } from './config.js';
import { explainStartupError, isTransientStartupError } from './startup-error.js';

interface ServerProcess {
  /** Who cannot start, for the one-line message ("Reel Live", "Reel Live server s1"). */
  name(config: Config | undefined): string;
  /** Starts everything; answers the line printed once it runs. */
  start(config: Config): Promise<string>;
  /** Stops whatever start got to; failures are ignored (the process is exiting). */
  stop(signal: string): Promise<void>;
}

export async function runServerProcess(server: ServerProcess) {
  const lifetime = stopOnSignal((signal) => server.stop(signal).catch(() => {}));

  let config: Config | undefined;
  try {
    config = loadConfig();
    const running = await server.start(config);
    if (!lifetime.stopping) console.log(running);
  } catch (error) {
    if (lifetime.stopping) return;
    if (isTransientStartupError(error)) {
      console.error(`${server.name(config)} did not start: ${(error as Error).message}; exiting to be started again`);
      await lifetime.shutdown('startup failure', 1);
      return;
    }
    console.error(`${server.name(config)} cannot start: ${explainStartupError(error, config?.port)}`);
    await lifetime.shutdown('startup failure', CANNOT_START_EXIT_CODE);
  }
}
