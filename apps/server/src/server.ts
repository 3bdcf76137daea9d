/** Start-up shared by `npm start`, the tests and the benchmarks: database, migrations, services, app. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded-postgres/embedded.js';
import { createPool } from './db/pool.js';
import { migrate } from './db/migrate.js';
import { createLocalBus, type Bus } from './lib/bus.js';
import { createTokenService } from './modules/auth/tokens.js';
import { createOperatorTokenService } from './modules/operators/operator-tokens.js';
import { loadProcessAuditKey, startAuditSigner, witnessFileOf } from './modules/audit/audit-signing.js';
import { createGeoService } from './modules/geo/geo.js';
import { AgentHub } from './modules/cabinets/agent-hub.js';
import { verifyMachineKey } from './modules/machines/machine-keys.js';
import { machineProfile, recordSnapshots } from './modules/machines/machine-art.js';
import { MediaService } from './modules/media/media-service.js';
import { SessionManager } from './modules/sessions/session-manager.js';
import { createProtection } from './modules/protection/protection.js';
import { MachineQueue } from './modules/queue/machine-queue.js';
import { readSettings } from './modules/settings/runtime-settings.js';
import { createVideoPort } from './modules/media/video-port.js';
import { emergencyStopOf } from './modules/floor/machine-service.js';
import type { VideoPort } from './modules/sessions/types.js';
import { Spectators, type WatchVideo } from './modules/spectators/index.js';
import { buildApp } from './app.js';

/** The token secret survives restarts (tokens stay valid) without anyone having to set one. */
function tokenSecret(config: Config): Uint8Array {
  if (config.jwtSecret) return new TextEncoder().encode(config.jwtSecret);
  const file = path.join(config.dataDir, 'token-secret');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(48).toString('base64url'), { mode: 0o600 });
  }
  return new TextEncoder().encode(fs.readFileSync(file, 'utf8').trim());
}

export interface Database {
  url: string;
  embedded?: EmbeddedDatabase;
}

export async function openDatabase(config: Config, log: (line: string) => void = () => {}): Promise<Database> {
  if (config.databaseUrl) return { url: config.databaseUrl };
  const embedded = await startEmbeddedPostgres(path.join(config.dataDir, 'pg'), {
    port: config.embeddedPgPort || undefined,
    log,
    notice: (line) => console.log(`[postgres] ${line}`),
  });
  return { url: embedded.url, embedded };
}

/** The services without sessions: database, bus, tokens, geo, the agent hub, the media process. */
export async function createBaseContext(config: Config, databaseUrl: string, bus: Bus = createLocalBus()): Promise<AppContext> {
  const db = createPool(databaseUrl, config.dbPoolMax);
  await migrate(db);
  const geo = await createGeoService({
    enabled: config.ipCheck.enabled,
    allowedCountries: config.ipCheck.allowedCountries,
    cidrFile: config.ipCheck.cidrFile,
    maxmindDb: config.ipCheck.maxmindDb,
  });
  const cabinets = new AgentHub({
    verifyMachineKey: (machineId, key) => verifyMachineKey(db, machineId, key),
    machineProfile: (machineId) => machineProfile(db, config.settingsFile, machineId),
    emergencyStop: (machineId) => emergencyStopOf(db, machineId),
    // Warnings only (a refused machine key, a machine whose video cannot start); connects are routine.
    log: { info: () => {}, warn: (details, message) => console.warn(`[cabinets] ${message} ${JSON.stringify(details)}`) },
  });
  recordSnapshots(cabinets, db, (line) => console.warn(`[cabinets] ${line}`));
  const media = config.media.enabled
    ? new MediaService({ backend: config.media.backend, browserIceServers: config.media.iceServers, log: (line) => console.log(`[media] ${line}`) })
    : null;
  const secret = tokenSecret(config);
  // appendAudit signs with it inside the callers' transactions.
  const auditKey = loadProcessAuditKey(config);
  const protection = createProtection({ db, settings: () => readSettings(config.settingsFile), now: Date.now });
  return {
    config,
    db,
    bus,
    tokens: createTokenService(db, secret, config.tokenTtlS, (playerId) => protection.breaks.refusal(playerId)),
    operatorTokens: createOperatorTokenService(db, secret, config.tokenTtlS),
    auditKey,
    geo,
    cabinets,
    media,
    protection,
    queue: new MachineQueue({ db, bus, breaks: protection.breaks, timers: config.queue }),
  } as AppContext;
}

export async function createContext(config: Config, databaseUrl: string): Promise<AppContext> {
  const ctx = await createBaseContext(config, databaseUrl);
  const { cabinets, media } = ctx;
  let video: VideoPort = { grant: async () => null };
  let watchVideo: WatchVideo | null = null;
  if (media) {
    const port = createVideoPort(cabinets, media, {
      warmStreams: config.media.warmStreams,
      timestampStrip: config.media.timestampStrip,
      // Held by a session, watched by staff on the console, or by spectators.
      isHeld: (machineId) => ctx.sessions.wantsStream(machineId) || Boolean(ctx.spectators?.isWatched(machineId)),
      watchGrantTtlMs: config.spectators.grantTtlMs,
      log: (line) => console.log(`[video] ${line}`),
    });
    video = port;
    watchVideo = port;
  }
  ctx.sessions = new SessionManager(ctx, cabinets, video, config.sessions);
  ctx.spectators = new Spectators({
    db: ctx.db,
    bus: ctx.bus,
    video: watchVideo,
    serverId: 'local',
    maxWatchersPerMachine: config.spectators.maxWatchersPerMachine,
    hotLimitCents: () => readSettings(config.settingsFile).HOT_FLAG_LIMIT,
  });
  return ctx;
}

/** Starts what runs beside HTTP: the media process and the session timers (after recovery). */
let stopAuditSigner = () => {};

export async function startServices(ctx: AppContext) {
  if (ctx.media) await ctx.media.start();
  await ctx.sessions.start();
  stopAuditSigner = startAuditSigner(ctx.db, ctx.auditKey, witnessFileOf(ctx.config.auditKeyFile), (error) => console.warn(`[audit] signing the head failed: ${(error as Error).message}`));
}

export async function stopServices(ctx: AppContext) {
  stopAuditSigner();
  await ctx.sessions.stop();
  ctx.spectators?.close();
  await ctx.media?.stop();
}

export { buildApp };
