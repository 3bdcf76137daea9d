/** REST side of sessions: the reconnect dialog's data and actions. */
import { ApiPath, Code, MachineActionRequest, OkResponse, OpenSessionResponse } from '@reel/protocol';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, securedSchema } from '../../lib/route-schema.js';
import { PLAYERS } from '../../lib/route-access.js';
import type { SessionService } from './types.js';

export const sessionRoutes: FastifyPluginAsyncTypebox<{ sessions: SessionService }> = async (app, { sessions }) => {
  const secured = { config: { roles: PLAYERS } };
  const schema = securedSchema('sessions');

  app.get(
    ApiPath.openSession,
    {
      ...secured,
      schema: schema({
        description: 'The open session for the reconnect dialog (show flag, machine id and name, machine_status).',
        response: {
          200: OpenSessionResponse,
          ...errorResponses,
        },
      }),
    },
    async (request) => {
      const open = await sessions.openSessionOf(request.auth.id);
      return {
        status: true,
        code: Code.Success,
        show: Boolean(open),
        id: open?.id ?? null,
        name: open?.name ?? null,
        machine_status: open?.machine_status ?? null,
        session_status: open?.status ?? null,
      };
    },
  );

  app.post(ApiPath.kick, { ...secured, schema: schema({ body: MachineActionRequest, response: { 200: OkResponse, ...errorResponses } }) }, async (request) => {
    await sessions.kick(request.auth.id, request.body.machineId, request.ip);
    return { status: true, code: Code.Success };
  });

  app.post(ApiPath.cancel, { ...secured, schema: schema({ body: MachineActionRequest, response: { 200: OkResponse, ...errorResponses } }) }, async (request) => {
    await sessions.cancel(request.auth.id, request.body.machineId);
    return { status: true, code: Code.Success };
  });
};
