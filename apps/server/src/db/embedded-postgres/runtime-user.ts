/**
 * PostgreSQL refuses to run as root. When we are root, it runs as the system user `postgres`
 * (created when missing, as a system account without a login shell); otherwise as ourselves.
 */
import { execFileSync, spawnSync } from 'node:child_process';

export interface RuntimeUser {
  uid: number;
  gid: number;
  name: string;
}

const NAME = 'postgres';

function lookup(): RuntimeUser | null {
  try {
    const uid = Number(execFileSync('id', ['-u', NAME], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    const gid = Number(execFileSync('id', ['-g', NAME], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { uid, gid, name: NAME };
  } catch {
    return null;
  }
}

/** null: not root, PostgreSQL runs as the current user. */
export function postgresRuntimeUser(): RuntimeUser | null {
  if (process.getuid?.() !== 0) return null;
  const existing = lookup();
  if (existing) return existing;
  const created = spawnSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', NAME], {
    encoding: 'utf8',
  });
  const user = lookup();
  if (!user) throw new Error(`could not create the system user "${NAME}" for PostgreSQL: ${created.stderr?.trim() || created.error?.message}`);
  return user;
}

/** Whether `user` can do what `testArgs` (arguments of test(1)) asks, e.g. ['-x', dir]. */
export function userCan(user: RuntimeUser, testArgs: string[]): boolean {
  const result = spawnSync('setpriv', [`--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', 'test', ...testArgs], { stdio: 'ignore' });
  return result.status === 0;
}
