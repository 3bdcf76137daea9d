/**
 * Server configuration from the environment, with defaults that make `npm start` work on a fresh clone.
 * Every duration carries its unit in the name.
 */
import path from 'node:path';
import { REPO_ROOT } from './lib/paths.js';

export { REPO_ROOT };

const int = (name: string, fallback: number, min = Number.NEGATIVE_INFINITY) => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw new Error(`${name} must be an integer, got "${raw}"`);
  if (value < min) throw new Error(`${name} must be at least ${min}, got ${value}`);
  return value;
};
const num = (name: string, fallback: number) => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number ≥ 0, got "${raw}"`);
  return value;
};
const bool = (name: string, fallback: boolean) => {
  const raw = process.env[name];
  return raw === undefined || raw === '' ? fallback : ['1', 'true', 'yes', 'on'].includes(raw.toLowerCase());
};
const str = (name: string, fallback: string) => process.env[name] || fallback;
/** A comma-separated list of origins (`https://play.example.com`), normalized; `*` stays as is. */
const origins = (name: string) =>
  (process.env[name] ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      if (entry === '*') return entry;
      let url: URL;
      try {
        url = new URL(entry);
      } catch {
        throw new Error(`${name}: "${entry}" is not an origin like https://play.example.com`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name}: "${entry}" is not an http(s) origin`);
      return url.origin;
    });

/** The NATS servers of a cluster (tests probe the same address the servers would use). */
export const natsUrlFromEnv = () => str('NATS_URL', 'nats://127.0.0.1:4222');
/** The port a server was asked for, for messages written before the whole config could load. */
export const portFromEnv = () => Number(str('PORT', '8080')) || 8080;

/** Where the audit trail's signing key lives in a data folder when AUDIT_KEY_FILE names no other. */
export const auditKeyFileIn = (dataDir: string) => path.join(dataDir, 'audit-signing-key.pem');

export function loadConfig() {
  const dataDir = path.resolve(REPO_ROOT, str('DATA_DIR', 'data'));
  return {
    host: str('HOST', '0.0.0.0'),
    port: int('PORT', 8080),
    dataDir,
    /** Unset: an embedded PostgreSQL under `${dataDir}/pg`. */
    databaseUrl: process.env.DATABASE_URL || '',
    embeddedPgPort: int('EMBEDDED_PG_PORT', 0),
    /**
     * Connections a server keeps to PostgreSQL at most. Several servers on one PostgreSQL share its
     * `max_connections` (100 by default): the cluster tests run three servers beside other tests.
     */
    dbPoolMax: int('DB_POOL_MAX', 30, 1),
    /** HS256 secret for access tokens; generated and kept under dataDir when unset. */
    jwtSecret: process.env.JWT_SECRET || '',
    tokenTtlS: int('TOKEN_TTL_S', 12 * 3600),
    /** The audit trail's Ed25519 signing key, outside the database (docs/operator.md); created when missing. */
    auditKeyFile: path.resolve(REPO_ROOT, str('AUDIT_KEY_FILE', auditKeyFileIn(dataDir))),
    login: {
      maxFailures: int('LOGIN_MAX_FAILURES', 5),
      blockMinutes: int('LOGIN_BLOCK_MINUTES', 15),
      rateLimitPerMinute: int('LOGIN_RATE_LIMIT_PER_MINUTE', 30),
    },
    passwordMaxAgeDays: int('PASSWORD_MAX_AGE_DAYS', 90),
    promotions: {
      discountCents: int('DISCOUNT_AMOUNT_CENTS', 2_000),
      bonusCents: int('BONUS_AMOUNT_CENTS', 1_000),
      cooldownMs: int('PROMOTION_COOLDOWN_MS', 30_000),
      /**
       * Bonus or discount money loaded on a machine counts as cash only after bets of this many times
       * its amount on that machine; until then a cash out returns it to its wallet part (docs/money.md).
       */
      wagerMultiplier: num('PROMOTION_WAGER_MULTIPLIER', 1),
    },
    ipCheck: {
      enabled: bool('IP_CHECK', false),
      /** Comma-separated ISO country codes that may play, e.g. "TR,CY". */
      allowedCountries: str('IP_ALLOWED_COUNTRIES', 'TR')
        .split(',')
        .map((c) => c.trim().toUpperCase())
        .filter(Boolean),
      /** JSON file: [{ "cidr": "10.0.0.0/8", "country": "TR" }, ...]; loopback is "LOCAL". */
      cidrFile: process.env.IP_CIDR_FILE || '',
      maxmindDb: process.env.MAXMIND_DB || '',
    },
    webDistDir: path.resolve(REPO_ROOT, str('WEB_DIST', 'apps/web/dist')),
    /** Extra keys merged over the Settings.json defaults (a JSON file path). */
    settingsFile: process.env.SETTINGS_FILE || path.join(dataDir, 'Settings.json'),
    sessions: {
      graceMs: int('SESSION_GRACE_MS', 120_000),
      noCreditsTimeoutMs: int('SESSION_NO_CREDITS_TIMEOUT_MS', 90_000),
      idleTimeoutMs: int('SESSION_IDLE_TIMEOUT_MS', 300_000),
      countdownS: int('SESSION_COUNTDOWN_S', 10),
    },
    /** The queue for a busy machine (modules/queue): the ready check's length, the clock, the wait estimate. */
    queue: {
      readyCheckMs: int('QUEUE_READY_CHECK_MS', 15_000),
      tickMs: int('QUEUE_TICK_MS', 1_000),
      defaultSessionS: int('QUEUE_ESTIMATE_SESSION_S', 300),
    },
    media: {
      /** Run the embedded WebRTC forwarder process (off in API tests). */
      enabled: bool('MEDIA', true),
      backend: (str('MEDIA_BACKEND', 'werift') === 'janus' ? 'janus' : 'werift') as 'werift' | 'janus',
      /** STUN/TURN for browsers, JSON: [{"urls":"stun:stun.example.org:3478"}]. */
      iceServers: JSON.parse(process.env.ICE_SERVERS || '[]') as { urls: string | string[]; username?: string; credential?: string }[],
      /** Machines kept streaming all the time, so joining them shows a picture at once. */
      warmStreams: int('WARM_STREAMS', 4),
      /** Draw the latency timestamp strip on the video (benchmarks). */
      timestampStrip: bool('TIMESTAMP_STRIP', false),
    },
    spectators: {
      /** Spectators one machine may have at once; the next is refused with 40935. */
      maxWatchersPerMachine: int('MAX_WATCHERS_PER_MACHINE', 500),
      /** A spectator's video grant lives this long (it only opens the stream; the page asks again on reconnect). */
      grantTtlMs: int('WATCH_GRANT_TTL_MS', 20_000),
    },
    /** Start the simulated demo cabinets with the server. */
    demoCabinets: bool('DEMO_CABINETS', true),
    ws: {
      /**
       * Origins besides the site's own (the host a request came to) whose pages may use this
       * backend: open the game and notification channels and call the API and WHEP (CORS); `*`
       * allows any. Upgrades without an Origin are not browsers.
       */
      allowedOrigins: origins('WS_ALLOWED_ORIGINS'),
      /** A game socket that has not sent `init` by then is closed (4003). */
      initTimeoutMs: int('WS_INIT_TIMEOUT_MS', 10_000),
    },
    /**
     * Several servers behind a load balancer (docs/scale.md): NATS as the bus, one session owner
     * at a time by a PostgreSQL lock. Off: the single process of `npm start`, in-process bus.
     */
    cluster: {
      enabled: bool('CLUSTER', false),
      natsUrl: natsUrlFromEnv(),
      /** Subject prefix: clusters (and test runs) sharing one NATS never hear each other. */
      natsPrefix: str('NATS_PREFIX', 'reel'),
      /** This server's name in the cluster (`GET /check` answers it as `server`). */
      serverId: str('SERVER_ID', `server-${process.pid}`),
    },
    /** Behind a load balancer (HAProxy in cluster mode): the client address comes from X-Forwarded-For. */
    trustProxy: bool('TRUST_PROXY', false),
    logLevel: str('LOG_LEVEL', 'info'),
    bodyLimitBytes: int('BODY_LIMIT_BYTES', 64 * 1024),
    seedDemo: bool('SEED_DEMO', true),
  };
}
export type Config = ReturnType<typeof loadConfig>;
