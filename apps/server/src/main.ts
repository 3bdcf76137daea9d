/** `npm start`: embedded PostgreSQL (or DATABASE_URL), migrations, demo data, HTTP on PORT. */
import type { FastifyInstance } from 'fastify';
import { seedDemo } from './demo/seed.js';
import type { AppContext } from './context.js';
import { buildApp, createContext, openDatabase, startServices, stopServices, type Database } from './server.js';
import { runServerProcess } from './server-process.js';

let database: Database | undefined;
let ctx: AppContext | undefined;
let app: FastifyInstance | undefined;

await runServerProcess({
  name: () => 'Reel Live',
  async start(config) {
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
    return `Reel Live is running on http://localhost:${config.port} (API docs: /api/docs)`;
  },
  async stop(signal) {
    ctx?.sessions.beginShutdown();
    app?.log.info({ signal }, 'shutting down');
    await app?.close().catch(() => {});
    if (ctx) await stopServices(ctx).catch(() => {});
    await ctx?.db.end().catch(() => {});
    await database?.embedded?.stop().catch(() => {});
  },
});
