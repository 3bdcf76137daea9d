/**
 * One server of `npm run cluster` (CLUSTER=true): like main.ts, on DATABASE_URL (the cluster's one
 * PostgreSQL, migrated by whoever comes first) and NATS_URL. The demo data is seeded by the
 * cluster script before the servers start, never by three servers at once.
 */
import type { FastifyInstance } from 'fastify';
import { CANNOT_START_EXIT_CODE } from '@reel/process';
import { loadConfig, type Config } from '../config.js';
import { buildApp } from '../server.js';
import { explainStartupError } from '../startup-error.js';
import { createClusterNode, type ClusterNode } from './cluster-node.js';

let node: ClusterNode | undefined;
let app: FastifyInstance | undefined;
let stopping = false;

async function shutdown(signal: string, exitCode = 0) {
  if (stopping) return;
  stopping = true;
  app?.log.info({ signal }, 'shutting down');
  await app?.close().catch(() => {});
  await node?.stop().catch(() => {});
  await node?.ctx.media?.stop().catch(() => {});
  await node?.ctx.db.end().catch(() => {});
  process.exit(exitCode);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

let config: Config | undefined;
try {
  config = loadConfig();
  if (!config.databaseUrl) throw new Error('a cluster server needs DATABASE_URL (the PostgreSQL every server shares)');
  node = await createClusterNode(config, config.databaseUrl);
  app = await buildApp(node.ctx);
  if (node.ctx.media) await node.ctx.media.start();
  await app.listen({ host: config.host, port: config.port });
  node.start();
} catch (error) {
  if (!stopping) {
    console.error(`Reel Live server ${config?.cluster.serverId ?? ''} cannot start: ${explainStartupError(error, config?.port)}`);
    await shutdown('startup failure', CANNOT_START_EXIT_CODE);
  }
}
if (!stopping) console.log(`Reel Live server ${config!.cluster.serverId} is running on port ${config!.port} (session owner: whoever holds the lease)`);
