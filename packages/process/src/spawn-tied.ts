/**
 * Spawns a child that the kernel stops when its parent dies, even by kill -9: `setpriv
 * --pdeathsig` (util-linux, on every Debian) sets PR_SET_PDEATHSIG before exec. Without it an
 * orphaned child (a PostgreSQL, a media process) keeps its port and data folder locked and the next
 * `npm start` cannot come up. setpriv also drops root to another user when asked (PostgreSQL
 * refuses to run as root), and the death signal survives that change because setpriv sets it last.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';

export interface TiedSpawnOptions extends SpawnOptions {
  /** Signal the child receives when this process dies (default SIGTERM). */
  deathSignal?: NodeJS.Signals;
  /** Run as this user (uid, gid), from root. */
  runAs?: { uid: number; gid: number };
}

let setprivAvailable: boolean | undefined;
function hasSetpriv(): boolean {
  setprivAvailable ??= spawnSync('setpriv', ['--version'], { stdio: 'ignore' }).status === 0;
  return setprivAvailable;
}

export function spawnTied(command: string, args: readonly string[], options: TiedSpawnOptions = {}): ChildProcess {
  const { deathSignal = 'SIGTERM', runAs, ...spawnOptions } = options;
  if (!hasSetpriv()) {
    // Not Linux with util-linux: the child still runs, it just may outlive a killed parent.
    return spawn(command, args, { ...spawnOptions, ...(runAs ?? {}) });
  }
  const identity = runAs ? [`--reuid=${runAs.uid}`, `--regid=${runAs.gid}`, '--clear-groups'] : [];
  const signal = deathSignal.replace(/^SIG/, '');
  return spawn('setpriv', [...identity, `--pdeathsig=${signal}`, '--', command, ...args], spawnOptions);
}
