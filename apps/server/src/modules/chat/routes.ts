/** Support chat of the signed-in player (spec sections 3, 4 and 7): contacts, user, conversations. */
import { Type } from '@fastify/type-provider-typebox';
import { ApiPath, ChatUser, ChatUserDataRequest, Code, Contact, GetChatQuery, GetChatResponse, SendMessageRequest, SendMessageResponse } from '@reel/protocol';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, securedSchema } from '../../lib/route-schema.js';
import type { Db } from '../../db/pool.js';
import type { Bus } from '../../lib/bus.js';
import { AppError } from '../../lib/errors.js';
import { underApiBase } from '../../lib/paths.js';
import { PLAYERS } from '../../lib/route-access.js';
import { chatIdFor, chatLanguage, createChatService, parseChatId } from './chat.js';

const SEND_PER_MINUTE = 30;

export const chatRoutes: FastifyPluginAsyncTypebox<{ db: Db; bus: Bus }> = async (app, { db, bus }) => {
  const chat = createChatService(db, bus, app.log);
  app.addHook('onClose', async () => chat.close());

  const secured = { config: { roles: PLAYERS } };
  const schema = securedSchema('chat');

  const requireAgent = async (contactId: string) => {
    const agent = await chat.agent(contactId);
    if (!agent) throw new AppError(Code.NotFound, 404, {}, 'Contact not found');
    return agent;
  };

  app.get(
    underApiBase(ApiPath.chatContacts),
    { ...secured, schema: schema({ response: { 200: Type.Array(Contact), ...errorResponses } }) },
    async (request) => chat.contacts(request.auth.id),
  );

  app.get(
    underApiBase(ApiPath.chatUser),
    { ...secured, schema: schema({ response: { 200: ChatUser, ...errorResponses } }) },
    async (request) => chat.user(request.auth.id),
  );

  app.post(
    underApiBase(ApiPath.chatUserData),
    {
      ...secured,
      schema: schema({ body: ChatUserDataRequest, response: { 200: ChatUser, ...errorResponses } }),
    },
    async (request) => {
      const { id, status, mood } = request.body;
      // The panel posts its whole user back; a user that is not the caller is not theirs to change.
      if (id !== undefined && id !== String(request.auth.id)) throw new AppError(Code.Forbidden, 403);
      await chat.updateUser(request.auth.id, { status, mood: mood?.trim() });
      return chat.user(request.auth.id);
    },
  );

  app.get(
    underApiBase(ApiPath.chatGetChat),
    {
      ...secured,
      schema: schema({ querystring: GetChatQuery, response: { 200: GetChatResponse, ...errorResponses } }),
    },
    async (request) => {
      const { contactId, userId } = request.query;
      if (userId !== undefined && userId !== '' && userId !== String(request.auth.id))
        throw new AppError(Code.Forbidden, 403);
      const agent = await requireAgent(contactId);
      const dialog = await chat.dialog(request.auth.id, agent.id);
      return {
        chat: { id: chatIdFor(request.auth.id, agent.id), dialog },
        userChatList: await chat.chatList(request.auth.id),
      };
    },
  );

  app.post(
    underApiBase(ApiPath.chatSendMessage),
    {
      ...secured,
      schema: schema({ body: SendMessageRequest, response: { 200: SendMessageResponse, ...errorResponses } }),
      // Keyed by the bearer token: the limit is per player, not per shared office IP.
      config: {
        ...secured.config,
        rateLimit: {
          max: SEND_PER_MINUTE,
          timeWindow: '1 minute',
          keyGenerator: (req) => req.headers.authorization ?? req.ip,
        },
      },
    },
    async (request) => {
      const { chatId, contactId, messageText } = request.body;
      const text = messageText.trim();
      if (!text) throw new AppError(Code.InvalidRequest, 400, {}, 'Invalid request: the message is empty');
      const parsed = parseChatId(chatId);
      if (!parsed) throw new AppError(Code.NotFound, 404, {}, 'Chat not found');
      if (parsed.playerId !== request.auth.id) throw new AppError(Code.Forbidden, 403);
      const agent = await requireAgent(contactId);
      if (parsed.agentId !== agent.id)
        throw new AppError(
          Code.InvalidRequest,
          400,
          {},
          'Invalid request: chatId is not the chat with contactId',
        );
      const message = await chat.send(request.auth.id, agent, text, chatLanguage(request.headers['accept-language']));
      return { message, userChatList: await chat.chatList(request.auth.id) };
    },
  );
};
