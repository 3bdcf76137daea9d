/** Everything under `/api/admin/` that this module owns: operators, players (and their protection), money, the audit trail. */
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/pool.js';
import type { Bus } from '../../lib/bus.js';
import type { LockoutPolicy } from '../auth/credentials.js';
import type { AuditKey } from '../audit/audit-signing.js';
import type { OperatorTokenService } from '../operators/operator-tokens.js';
import type { Protection } from '../protection/protection.js';
import { operatorRoutes } from '../operators/routes.js';
import { adminAuditRoutes } from './audit-routes.js';
import { adminMoneyRoutes } from './money-routes.js';
import { adminPlayerRoutes } from './player-routes.js';
import { adminProtectionRoutes } from './protection-routes.js';

interface AdminDeps {
  db: Db;
  bus: Bus;
  operatorTokens: OperatorTokenService;
  auditKey: AuditKey;
  /** The newest signed head, kept outside the database (audit-signing.ts). */
  auditWitnessFile: string;
  config: { login: LockoutPolicy };
  /** A player's limits and breaks (modules/protection). */
  protection: Pick<Protection, 'limits' | 'breaks'>;
}

export const adminRoutes: FastifyPluginAsync<AdminDeps> = async (app, deps) => {
  await app.register(operatorRoutes, deps);
  await app.register(adminPlayerRoutes, deps);
  await app.register(adminProtectionRoutes, deps);
  await app.register(adminMoneyRoutes, deps);
  await app.register(adminAuditRoutes, deps);
};
