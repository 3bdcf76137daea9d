/** `/api/admin/ledger/*` and `/api/admin/jackpots`: read-only money pages for every operator. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AdminPath,
  Code,
  JackpotPoolsResponse,
  LedgerAccountPage,
  LedgerAccountsQuery,
  LedgerAuditResponse,
  LedgerTransferPage,
  LedgerTransfersQuery,
} from '@reel/protocol';
import type { Db } from '../../db/pool.js';
import { errorResponses, securedSchema } from '../../lib/route-schema.js';
import { STAFF } from '../../lib/route-access.js';
import { auditMoney } from '../ledger/player-audit.js';
import { jackpotPools, listAccounts, listTransfers } from './money-queries.js';

const ok = { status: true, code: Code.Success } as const;

export const adminMoneyRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  const schema = securedSchema('admin');
  const config = { roles: STAFF };

  app.get(AdminPath.ledgerAccounts, { config, schema: schema({ querystring: LedgerAccountsQuery, response: { 200: LedgerAccountPage, ...errorResponses } }) }, async (request) => ({
    ...ok,
    ...(await listAccounts(db, request.query)),
  }));

  app.get(AdminPath.ledgerTransfers, { config, schema: schema({ querystring: LedgerTransfersQuery, response: { 200: LedgerTransferPage, ...errorResponses } }) }, async (request) => ({
    ...ok,
    ...(await listTransfers(db, request.query)),
  }));

  app.get(AdminPath.ledgerAudit, { config, schema: schema({ response: { 200: LedgerAuditResponse, ...errorResponses } }) }, async () => ({
    ...ok,
    ...(await auditMoney(db)),
  }));

  app.get(AdminPath.jackpots, { config, schema: schema({ response: { 200: JackpotPoolsResponse, ...errorResponses } }) }, async () => ({
    ...ok,
    items: await jackpotPools(db),
  }));
};
