/** `/api/admin/audit`: the trail with filters, and the chain's verification, for every operator. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AdminPath, AuditPage, AuditQuery, AuditVerifyResponse, Code } from '@reel/protocol';
import type { Db } from '../../db/pool.js';
import { errorResponses, securedSchema } from '../../lib/route-schema.js';
import { STAFF } from '../../lib/route-access.js';
import { listAudit } from '../audit/audit-queries.js';
import { readHeadWitness, type AuditKey } from '../audit/audit-signing.js';
import { verifyAudit } from '../audit/audit-verify.js';

const ok = { status: true, code: Code.Success } as const;

export const adminAuditRoutes: FastifyPluginAsyncTypebox<{ db: Db; auditKey: AuditKey; auditWitnessFile: string }> = async (
  app,
  { db, auditKey, auditWitnessFile },
) => {
  const schema = securedSchema('admin');
  app.get(AdminPath.audit, { config: { roles: STAFF }, schema: schema({ querystring: AuditQuery, response: { 200: AuditPage, ...errorResponses } }) }, async (request) => ({
    ...ok,
    ...(await listAudit(db, request.query)),
  }));
  app.get(AdminPath.auditVerify, { config: { roles: STAFF }, schema: schema({ response: { 200: AuditVerifyResponse, ...errorResponses } }) }, async () => ({
    ...ok,
    ...(await verifyAudit(db, auditKey, readHeadWitness(auditWitnessFile))),
  }));
};
