/** The player's queue entry: read it (GET), join a machine's line (POST), leave it (DELETE). */
import { ApiPath, Code, OkResponse, QueueJoinRequest, QueueResponse } from '@reel/protocol';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../lib/errors.js';
import { errorResponses, securedSchema } from '../../lib/route-schema.js';
import { PLAYERS } from '../../lib/route-access.js';
import type { MachineQueue } from './machine-queue.js';

export const queueRoutes: FastifyPluginAsyncTypebox<{ queue: MachineQueue }> = async (app, { queue }) => {
  const secured = { config: { roles: PLAYERS } };
  const schema = securedSchema('queue');
  const response = { 200: QueueResponse, ...errorResponses };

  app.get(
    ApiPath.queue,
    { ...secured, schema: schema({ description: "The player's queue entry (null: in no line).", response }) },
    async (request) => ({
      status: true,
      code: Code.Success,
      entry: await queue.entry(request.auth.id),
    }),
  );

  app.post(
    ApiPath.queue,
    {
      ...secured,
      schema: schema({
        description: 'Joins the line of a Playing or Waiting machine (one entry per player).',
        body: QueueJoinRequest,
        response,
      }),
    },
    async (request) => ({
      status: true,
      code: Code.Success,
      entry: await queue.join(request.auth.id, request.body.machineId),
    }),
  );

  app.delete(
    ApiPath.queue,
    {
      ...secured,
      schema: schema({
        description: 'Leaves the line (a ready check is declined).',
        response: { 200: OkResponse, ...errorResponses },
      }),
    },
    async (request) => {
      if (!(await queue.leave(request.auth.id))) throw new AppError(Code.NotInQueue, 404);
      return { status: true, code: Code.Success };
    },
  );
};
