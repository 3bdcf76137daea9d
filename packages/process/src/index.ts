export { spawnTied, type TiedSpawnOptions } from './spawn-tied.js';
export { stopProcess, stopChild, isAlive, waitGone, commandLineOf } from './stop-process.js';
/** A process that cannot start and needs a person (a config error, a busy port) exits with EX_CONFIG: no restart. */
export const CANNOT_START_EXIT_CODE = 78;
export { freePort, pollUntil, waitForUrl } from './ports.js';
export { Verdict, type Goal } from './verdict.js';
export { Backoff, backoffDelayMs, type BackoffPolicy } from './backoff.js';
export { stopOnSignal } from './stop-on-signal.js';
export { KeyedQueue } from './keyed-queue.js';
