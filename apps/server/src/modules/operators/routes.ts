/**
 * `/api/admin/auth/*` (operator sign-in, who am I, sign-out) and `/api/admin/operators` (admins
 * create operators and change their role or status; each change is one audit row).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AdminIdParams,
  AdminLoginRequest,
  AdminLoginResponse,
  AdminMeResponse,
  AdminPath,
  Code,
  CreateOperatorRequest,
  OkResponse,
  OperatorListResponse,
  OperatorResponse,
  OperatorStatus,
  SetOperatorRoleRequest,
  SetOperatorStatusRequest,
  type OperatorClaims,
  type OperatorRole,
} from '@reel/protocol';
import { withTransaction, type Db } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import { errorResponses, securedSchema } from '../../lib/route-schema.js';
import { ADMIN_ONLY, PUBLIC, STAFF } from '../../lib/route-access.js';
import { appendAudit } from '../audit/audit-log.js';
import { operatorActor, requireReason } from '../audit/audit-actor.js';
import type { LockoutPolicy } from '../auth/credentials.js';
import { operatorLogin } from './operator-login.js';
import type { OperatorTokenService } from './operator-tokens.js';
import { createOperator, findOperator, listOperators, operatorView, updateOperator } from './operators.js';

interface OperatorRouteDeps {
  db: Db;
  operatorTokens: OperatorTokenService;
  config: { login: LockoutPolicy };
}

const ok = { status: true, code: Code.Success } as const;

export const operatorRoutes: FastifyPluginAsyncTypebox<OperatorRouteDeps> = async (app, deps) => {
  const schema = securedSchema('admin');
  const { db } = deps;

  app.post(
    AdminPath.login,
    {
      config: { roles: PUBLIC },
      schema: { tags: ['admin'], body: AdminLoginRequest, response: { 200: AdminLoginResponse, ...errorResponses } },
      // The same per-IP limit as the players' sign-in.
      onRequest: app.credentialRateLimit,
    },
    async (request) => operatorLogin(deps, { username: request.body.username, password: request.body.password, ip: request.ip }),
  );

  app.get(AdminPath.me, { config: { roles: STAFF }, schema: schema({ response: { 200: AdminMeResponse, ...errorResponses } }) }, async (request) => ({
    ...ok,
    operator: operatorView(await findOperator(db, request.operator.id)),
  }));

  app.post(AdminPath.logout, { config: { roles: STAFF }, schema: schema({ response: { 200: OkResponse, ...errorResponses } }) }, async (request) => {
    await deps.operatorTokens.revoke(request.operator.jti);
    return ok;
  });

  app.get(AdminPath.operators, { config: { roles: ADMIN_ONLY }, schema: schema({ response: { 200: OperatorListResponse, ...errorResponses } }) }, async () => ({
    ...ok,
    items: (await listOperators(db)).map(operatorView),
  }));

  app.post(
    AdminPath.operators,
    { config: { roles: ADMIN_ONLY }, schema: schema({ body: CreateOperatorRequest, response: { 200: OperatorResponse, ...errorResponses } }) },
    async (request) => {
      const reason = requireReason(request.body.reason);
      const created = await withTransaction(db, async (tx) => {
        const operator = await createOperator(tx, request.body);
        await appendAudit(tx, {
          actor: operatorActor(request.operator),
          action: 'operator.create',
          target: `operator:${operator.id}`,
          before: null,
          after: { username: operator.username, role: operator.role, status: operator.status },
          reason,
        });
        return operator;
      });
      return { ...ok, operator: operatorView(created) };
    },
  );

  /** One audited change of another operator's role or status; a disabled operator's tokens end now. */
  const changeOperator = async (actor: OperatorClaims, id: number, change: { role?: OperatorRole; status?: OperatorStatus }, reason: string) => {
    if (id === actor.id) throw new AppError(Code.OwnAccountNotAllowed, 403);
    const changed = await withTransaction(db, async (tx) => {
      const before = await findOperator(tx, id, true);
      const after = await updateOperator(tx, id, change);
      await appendAudit(tx, {
        actor: operatorActor(actor),
        action: change.role ? 'operator.role' : 'operator.status',
        target: `operator:${id}`,
        before: { role: before.role, status: before.status },
        after: { role: after.role, status: after.status },
        reason,
      });
      return after;
    });
    if (changed.status === OperatorStatus.Disabled) await deps.operatorTokens.revokeAll(id);
    return { ...ok, operator: operatorView(changed) };
  };

  app.post(
    AdminPath.operatorRole,
    { config: { roles: ADMIN_ONLY }, schema: schema({ params: AdminIdParams, body: SetOperatorRoleRequest, response: { 200: OperatorResponse, ...errorResponses } }) },
    async (request) => changeOperator(request.operator, request.params.id, { role: request.body.role }, requireReason(request.body.reason)),
  );

  app.post(
    AdminPath.operatorStatus,
    { config: { roles: ADMIN_ONLY }, schema: schema({ params: AdminIdParams, body: SetOperatorStatusRequest, response: { 200: OperatorResponse, ...errorResponses } }) },
    async (request) => changeOperator(request.operator, request.params.id, { status: request.body.status }, requireReason(request.body.reason)),
  );
};
