/**
 * `npm run cluster`: the multi-server topology on one machine (docs/scale.md). Three servers
 * (ports PORT+1..PORT+3) behind HAProxy on PORT (default 8080), NATS as their bus, one PostgreSQL
 * (DATABASE_URL, else the embedded one under DATA_DIR/pg), and the demo cabinets connected through
 * HAProxy. NATS_URL points at a NATS of your own; otherwise a nats-server is started on NATS_PORT
 * (default PORT+2142, e.g. 10222). Every child is tied to this process; Ctrl-C stops them all, a
 * crashed server is started again. Video: every server runs a Janus media process (the NACK-fixed
 * build when it can be built, else Debian `janus`; werift when Janus cannot be installed) and
 * streams the machines of the shards it owns (docs/scale.md).
 * TLS_PEM names a PEM file with a certificate and its key: HAProxy then serves PORT over TLS and
 * HTTP/2 (the cabinets keep a plain bind on 127.0.0.1:PORT+4).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../apps/server/src/db/embedded-postgres/embedded.js';
import { natsUnavailable } from '../apps/server/src/cluster/nats-available.js';
import { startNatsServer } from '../apps/server/src/cluster/nats-server.js';
import { prepareDatabase, startCluster, type Cluster } from '../apps/server/src/cluster/launch/launch.js';
import { ensurePatchedJanus } from '../apps/media/src/janus/janus-build.js';
import { ensureSystemPackages } from './system-packages.js';
import { buildWeb, webBuildIsStale } from './web-build.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.PORT || 8080);
const dataDir = path.resolve(root, process.env.DATA_DIR || 'data-cluster');
const log = (line: string) => console.log(`[cluster] ${line}`);

const missing = ensureSystemPackages(
  [
    { binary: '/usr/sbin/haproxy', pkg: 'haproxy', why: 'the load balancer in front of the servers', required: true },
    ...(process.env.NATS_URL ? [] : [{ binary: '/usr/sbin/nats-server', pkg: 'nats-server', why: 'the bus between the servers', required: true }]),
    { binary: '/usr/bin/janus', pkg: 'janus', why: 'the media server of the cluster (werift is used without it)', required: false },
  ],
  'npm run cluster',
);
const mediaBackend = process.env.MEDIA_BACKEND || (missing.some((p) => p.pkg === 'janus') ? 'werift' : 'janus');
// The media processes run the NACK-fixed Janus when it is built (Debian's otherwise, said here).
if (mediaBackend === 'janus') await ensurePatchedJanus((line) => log(line));
if (webBuildIsStale()) buildWeb();
fs.mkdirSync(dataDir, { recursive: true });

let embedded: EmbeddedDatabase | undefined;
let cluster: Cluster | undefined;
let stopping = false;
async function stopAll(code: number) {
  if (stopping) return;
  stopping = true;
  await cluster?.stop().catch(() => {});
  await embedded?.stop().catch(() => {});
  process.exit(code);
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

try {
  let databaseUrl = process.env.DATABASE_URL ?? '';
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(path.join(dataDir, 'pg'), { notice: (line) => log(`[postgres] ${line}`) });
    databaseUrl = embedded.url;
  }
  let natsUrl = process.env.NATS_URL ?? '';
  if (!natsUrl) {
    const nats = await startNatsServer(Number(process.env.NATS_PORT || port + 2142), ['ignore', 'ignore', 'inherit']);
    natsUrl = nats.url;
    nats.child.once('exit', (code) => !stopping && (log(`nats-server exited (${code})`), void stopAll(1)));
  }
  const missing = await natsUnavailable(natsUrl);
  if (missing) throw new Error(missing);
  if (await prepareDatabase(databaseUrl, dataDir)) log('demo data created (player demo / demo1234)');
  const secretFile = path.join(dataDir, 'token-secret');
  if (!fs.existsSync(secretFile)) fs.writeFileSync(secretFile, randomBytes(48).toString('base64url'), { mode: 0o600 });
  cluster = await startCluster({
    port,
    serverPorts: [port + 1, port + 2, port + 3],
    bind: process.env.HOST || '0.0.0.0',
    databaseUrl,
    natsUrl,
    natsPrefix: process.env.NATS_PREFIX || 'reel',
    dataDir,
    jwtSecret: process.env.JWT_SECRET || fs.readFileSync(secretFile, 'utf8').trim(),
    restart: true,
    ...(process.env.TLS_PEM ? { tlsPem: path.resolve(process.env.TLS_PEM) } : {}),
    env: { MEDIA_BACKEND: mediaBackend },
    log,
    output: (name, line) => console.log(`[${name}] ${line}`),
  });
  log(`Reel Live (3 servers behind HAProxy, video through ${mediaBackend}) is running on ${process.env.TLS_PEM ? 'https' : 'http'}://localhost:${port}; GET /check names the answering server`);
} catch (error) {
  console.error(`npm run cluster cannot start: ${(error as Error).message}`);
  await stopAll(78);
}
