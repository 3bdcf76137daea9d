/** `npm start`: embedded PostgreSQL (or DATABASE_URL), migrations, demo data, HTTP on PORT. */
import { loadConfig } from './config.js';
import { seedDemo } from './db/seed.js';
import { buildApp, createContext, openDatabase, startServices, stopServices } from './server.js';

const config = loadConfig();
const database = await openDatabase(config);
const ctx = await createContext(config, database.url);
if (config.seedDemo && (await seedDemo(ctx.db, config.dataDir))) console.log('Demo data created (player demo / demo1234).');
const app = await buildApp(ctx);
await startServices(ctx);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  ctx.sessions.beginShutdown();
  app.log.info({ signal }, 'shutting down');
  await app.close().catch(() => {});
  await stopServices(ctx).catch(() => {});
  await ctx.db.end().catch(() => {});
  await database.embedded?.stop().catch(() => {});
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ host: config.host, port: config.port });
console.log(`Reel Live is running on http://localhost:${config.port} (API docs: /api/docs)`);
