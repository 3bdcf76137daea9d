/**
 * One server of `npm run cluster` (CLUSTER=true): like main.ts, on DATABASE_URL (the cluster's one
 * PostgreSQL, migrated by whoever comes first) and NATS_URL. The demo data is seeded by the
 * cluster script before the servers start, never by three servers at once.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server.js';
import { runServerProcess } from '../server-process.js';
import { createClusterNode, type ClusterNode } from './cluster-node.js';

let node: ClusterNode | undefined;
let app: FastifyInstance | undefined;

await runServerProcess({
  name: (config) => `Reel Live server ${config?.cluster.serverId ?? ''}`,
  async start(config) {
    if (!config.databaseUrl) throw new Error('a cluster server needs DATABASE_URL (the PostgreSQL every server shares)');
    node = await createClusterNode(config, config.databaseUrl);
    app = await buildApp(node.ctx);
    if (node.ctx.media) await node.ctx.media.start();
    await app.listen({ host: config.host, port: config.port });
    node.start();
    return `Reel Live server ${config.cluster.serverId} is running on port ${config.port} (it owns its share of the machine shards; see GET /check)`;
  },
  async stop(signal) {
    app?.log.info({ signal }, 'shutting down');
    await app?.close().catch(() => {});
    await node?.stop().catch(() => {});
    await node?.ctx.media?.stop().catch(() => {});
    await node?.ctx.db.end().catch(() => {});
  },
});
