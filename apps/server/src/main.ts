/** `npm start`: embedded PostgreSQL (or DATABASE_URL), migrations, demo data, HTTP on PORT. */
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from './config.js';
import { seedDemo } from './demo/seed.js';
import type { AppContext } from './context.js';
import { buildApp, createContext, openDatabase, startServices, stopServices, type Database } from './server.js';
import { CANNOT_START_EXIT_CODE } from '@reel/process';
import { explainStartupError } from './startup-error.js';

let database: Database | undefined;
let ctx: AppContext | undefined;
let app: FastifyInstance | undefined;
let stopping = false;

async function shutdown(signal: string, exitCode = 0) {
  if (stopping) return;
  stopping = true;
  ctx?.sessions.beginShutdown();
  app?.log.info({ signal }, 'shutting down');
  await app?.close().catch(() => {});
  if (ctx) await stopServices(ctx).catch(() => {});
  await ctx?.db.end().catch(() => {});
  await database?.embedded?.stop().catch(() => {});
  process.exit(exitCode);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

let config: Config | undefined;
try {
  config = loadConfig();
  database = await openDatabase(config);
  // Without its database the server can do nothing right: exit, and npm start restarts both.
  database.embedded?.onUnexpectedExit((why) => {
    console.error(`[postgres] stopped unexpectedly (${why}); the server exits so that npm start restarts it with its database`);
    process.exit(1);
  });
  ctx = await createContext(config, database.url);
  if (config.seedDemo && (await seedDemo(ctx.db, config.dataDir))) console.log('Demo data created (player demo / demo1234).');
  app = await buildApp(ctx);
  await startServices(ctx);
  await app.listen({ host: config.host, port: config.port });
} catch (error) {
  if (!stopping) {
    console.error(`Reel Live cannot start: ${explainStartupError(error, config?.port)}`);
    await shutdown('startup failure', CANNOT_START_EXIT_CODE);
  }
}
if (!stopping) console.log(`Reel Live is running on http://localhost:${config!.port} (API docs: /api/docs)`);
