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
import type { MachineQueue } from './modules/queue/machine-queue.js';
import type { SessionManager } from './modules/sessions/session-manager.js';
import type { SessionService } from './modules/sessions/types.js';
import type { ClusterCabinets } from './cluster/cluster-cabinets.js';
import type { RelayedFloor } from './cluster/floor-relay.js';
import type { Spectators } from './modules/spectators/index.js';

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
  /** Spectators (watch grants, watcher counts); not wired on cluster servers yet (docs/scale.md). */
  spectators?: Spectators;
  /** Player protection: limits, breaks, reality checks (modules/protection). */
  protection: Protection;
  /** The queue for a busy machine (modules/queue); its clock runs with the sessions. */
  queue: MachineQueue;
  /**
   * In a cluster (docs/scale.md): this server's id; the sessions, the video viewers and the console's
   * floor actions, asked of each machine's shard owner over the bus; every server's cabinets (a
   * mirror); and what this server owns (`GET /check`).
   */
  cluster?: {
    serverId: string;
    sessions: SessionService;
    viewers: ViewerGateway | null;
    floor: RelayedFloor;
    cabinets: ClusterCabinets;
    status(): { shards: number; sessions: number; relayed: number };
  };
}

/** The Fastify instance type the app is built on (TypeBox-typed). */
export type Api = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;
