/**
 * The life of a server process (`npm start`'s server and each cluster server): start, stop once on
 * SIGINT/SIGTERM, and a start that fails says why in one line and exits with EX_CONFIG (78), which
 * `npm start` takes as "do not restart, a person must act".
 */
import { CANNOT_START_EXIT_CODE } from '@reel/process';
import { loadConfig, type Config } from './config.js';
import { explainStartupError } from './startup-error.js';

interface ServerProcess {
  /** Who cannot start, for the one-line message ("Reel Live", "Reel Live server s1"). */
  name(config: Config | undefined): string;
  /** Starts everything; answers the line printed once it runs. */
  start(config: Config): Promise<string>;
  /** Stops whatever start got to; failures are ignored (the process is exiting). */
  stop(signal: string): Promise<void>;
}

export async function runServerProcess(server: ServerProcess) {
  let stopping = false;
  const shutdown = async (signal: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    await server.stop(signal).catch(() => {});
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  let config: Config | undefined;
  try {
    config = loadConfig();
    const running = await server.start(config);
    if (!stopping) console.log(running);
  } catch (error) {
    if (stopping) return;
    console.error(`${server.name(config)} cannot start: ${explainStartupError(error, config?.port)}`);
    await shutdown('startup failure', CANNOT_START_EXIT_CODE);
  }
}
