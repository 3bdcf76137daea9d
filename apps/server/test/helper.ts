/**
 * Builds the real app on its own fresh database (a copy of the migrated template) with demo data,
 * for `app.inject()` tests. Close it after the file's tests.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../src/config.js';
import { buildApp, createContext } from '../src/server.js';
import { seedDemo } from '../src/demo/seed.js';
import { forgetSystemAccounts } from '../src/modules/ledger/ledger.js';
import type { AppContext } from '../src/context.js';
import type { App } from '../src/app.js';

/** Writes the runtime settings (Settings.json) the app reads per request; keys not given keep their defaults. */
export function writeSettings(ctx: Pick<AppContext, 'config'>, settings: Record<string, unknown>): void {
  fs.writeFileSync(ctx.config.settingsFile, JSON.stringify(settings));
}

export interface TestApp {
  app: App;
  ctx: AppContext;
  databaseUrl: string;
  /** Signs in and returns the bearer token. */
  login(username?: string, password?: string): Promise<string>;
  /** Signs an operator in to the console (demo operators: admin, staff1, staff2) and returns the bearer token. */
  operatorLogin(username?: string, password?: string): Promise<string>;
  auth(token: string): { authorization: string };
  close(): Promise<void>;
}

function withDatabase(url: string, database: string) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject('pgAdminUrl');
  const prefix = inject('pgDatabasePrefix');
  const name = `${prefix}${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${prefix}template`);
  await admin.end();
  return {
    url: withDatabase(adminUrl, name),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * `overrides` adjusts the configuration; `setup` runs on the services before the app is built, e.g.
 * to put a session manager over fake cabinets in `ctx.sessions`.
 */
export async function createTestApp(
  overrides: (config: Config) => void = () => {},
  setup: (ctx: AppContext) => void | Promise<void> = () => {},
  /** Adds routes of the test's own (e.g. a staff-only one) before the app starts. */
  beforeReady: (app: App) => void | Promise<void> = () => {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reel-test-data-'));
  const config = loadConfig();
  config.dataDir = dataDir;
  config.settingsFile = path.join(dataDir, 'Settings.json');
  config.jwtSecret = crypto.randomBytes(32).toString('hex');
  config.webDistDir = path.join(dataDir, 'no-web');
  config.login.rateLimitPerMinute = 1000;
  config.media.enabled = false;
  config.demoCabinets = false;
  overrides(config);
  forgetSystemAccounts();
  const ctx = await createContext(config, database.url);
  await seedDemo(ctx.db, dataDir);
  await setup(ctx);
  const app = await buildApp(ctx, { logger: false });
  await beforeReady(app);
  await app.ready();
  return {
    app,
    ctx,
    databaseUrl: database.url,
    async login(username = 'demo', password = 'demo1234') {
      const response = await app.inject({ method: 'POST', url: '/api/login', payload: { username, password } });
      if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
      return response.json<{ token: string }>().token;
    },
    async operatorLogin(username = 'admin', password = 'admin1234') {
      const response = await app.inject({ method: 'POST', url: '/api/admin/auth/login', payload: { username, password } });
      if (response.statusCode !== 200) throw new Error(`operator login failed: ${response.body}`);
      return response.json<{ token: string }>().token;
    },
    auth: (token) => ({ authorization: `Bearer ${token}` }),
    async close() {
      await app.close();
      await ctx.sessions.stop();
      await ctx.db.end();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
