/** The console's support chat (issue 27): staff see every conversation, answer, and set their status. */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AdminChatPath,
  StaffChatMessage,
  StaffChatStatus,
  StaffChatStatusRequest,
  StaffConversation,
  StaffConversationParams,
  StaffReplyRequest,
} from '@reel/protocol';
import type { Db } from '../../db/pool.js';
import type { Bus } from '../../lib/bus.js';
import { STAFF } from '../../lib/route-access.js';
import { errorResponses, securedSchema } from '../../lib/route-schema.js';
import { staffActor } from '../operator-actions/actor.js';
import { createStaffChat } from './staff-chat.js';
import { setStaffStatus } from './staff-presence.js';

export const staffChatRoutes: FastifyPluginAsyncTypebox<{ db: Db; bus: Bus }> = async (app, { db, bus }) => {
  const chat = createStaffChat(db, bus);
  const staffOnly = { config: { roles: STAFF } };
  const schema = securedSchema('admin');

  app.get(
    AdminChatPath.conversations,
    { ...staffOnly, schema: schema({ response: { 200: Type.Array(StaffConversation), ...errorResponses } }) },
    async () => chat.conversations(),
  );

  app.get(
    AdminChatPath.conversation,
    {
      ...staffOnly,
      schema: schema({ params: StaffConversationParams, response: { 200: Type.Array(StaffChatMessage), ...errorResponses } }),
    },
    async (request) => chat.thread(request.params.playerId),
  );

  app.post(
    AdminChatPath.reply,
    {
      ...staffOnly,
      schema: schema({
        params: StaffConversationParams,
        body: StaffReplyRequest,
        response: { 200: StaffChatMessage, ...errorResponses },
      }),
    },
    async (request) => chat.reply(staffActor(request.operator), request.params.playerId, request.body.message),
  );

  app.put(
    AdminChatPath.status,
    {
      ...staffOnly,
      schema: schema({ body: StaffChatStatusRequest, response: { 200: StaffChatStatus, ...errorResponses } }),
    },
    async (request) => {
      const { status } = request.body;
      const staff = staffActor(request.operator);
      return { status, deskStatus: await setStaffStatus(db, { id: staff.id, name: staff.username }, status) };
    },
  );
};
