/** The services built once at start; routes.ts hands each route plugin the ones it uses. */
import type { FastifyInstance, FastifyBaseLogger, RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import type { Db } from './db/pool.js';
import type { Bus } from './lib/bus.js';
import type { TokenService } from './modules/auth/tokens.js';
import type { OperatorTokenService } from './modules/operators/operator-tokens.js';
import type { AuditKey } from './modules/audit/audit-signing.js';
import type { GeoService } from './modules/geo/geo.js';
import type { AgentHub } from './modules/cabinets/agent-hub.js';
import type { MediaService } from './modules/media/media-service.js';
import type { ViewerGateway } from './modules/media/plugin.js';
import type { Protection } from './modules/protection/protection.js';
import type { SessionManager } from './modules/sessions/session-manager.js';
import type { SessionService } from './modules/sessions/types.js';

export interface AppContext {
  config: Config;
  db: Db;
  bus: Bus;
  tokens: TokenService;
  /** Operator tokens (the console, `/api/admin/`). */
  operatorTokens: OperatorTokenService;
  /** The audit trail's signing key (loaded from outside the database). */
  auditKey: AuditKey;
  geo: GeoService;
  /** Connected machine agents. */
  cabinets: AgentHub;
  /** The WebRTC media process; null when video is off (API tests). */
  media: MediaService | null;
  sessions: SessionManager;
  /** Player protection: limits, breaks, reality checks (modules/protection). */
  protection: Protection;
  /** Set when several servers run (docs/scale.md): who this server is, and sessions over the bus. */
  /** In a cluster: this server's id, the sessions and the video viewers, asked of the owning server over the bus. */
  cluster?: { serverId: string; sessions: SessionService; viewers: ViewerGateway | null };
}

/** The Fastify instance type the app is built on (TypeBox-typed). */
export type Api = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;
