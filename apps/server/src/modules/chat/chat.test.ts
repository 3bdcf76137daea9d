import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPath, Code, chatNoStaffOnlineText } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';
import { Topic } from '../../lib/bus.js';
import { ACK_DELAY_MS } from './chat.js';

let t: TestApp;
let demoToken: string;
let aliceToken: string;
let demoId: number;
let aliceId: number;

const url = (path: string) => `/api${path.replace(/^\/api/, '')}`;
const get = (path: string, token = demoToken) =>
  t.app.inject({ method: 'GET', url: url(path), headers: t.auth(token) });
const post = (path: string, payload: unknown, token = demoToken) =>
  t.app.inject({ method: 'POST', url: url(path), headers: t.auth(token), payload: payload as object });
const send = (contactId: string, messageText: string, token = demoToken, playerId = demoId) =>
  post(ApiPath.chatSendMessage, { chatId: `${playerId}-${contactId}`, contactId, messageText }, token);

async function waitFor<T>(probe: () => Promise<T | undefined>, ms = ACK_DELAY_MS * 4): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  t = await createTestApp();
  demoToken = await t.login('demo', 'demo1234');
  aliceToken = await t.login('alice', 'alice1234');
  const { rows } = await t.ctx.db.query<{ id: number; username: string }>('SELECT id, username FROM players');
  demoId = rows.find((p) => p.username === 'demo')!.id;
  aliceId = rows.find((p) => p.username === 'alice')!.id;
});
afterAll(() => t.close());

describe('GET /api/chat/contacts', () => {
  it('lists the support desk, offline while no staff member set a status, with no unread messages', async () => {
    const response = await get(ApiPath.chatContacts);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      { id: 'support', name: 'Support', avatar: '', status: 'offline', mood: '', unread: 0 },
    ]);
  });
});

describe('GET /api/chat/user and POST /api/chat/user/data', () => {
  it('answers the player as a chat user', async () => {
    const response = await get(ApiPath.chatUser);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: String(demoId),
      name: 'Demo Player',
      avatar: '',
      status: 'online',
      mood: '',
      chatList: [],
    });
  });

  it('updates the own status and mood, and keeps what is not sent', async () => {
    const first = await post(ApiPath.chatUserData, { status: 'away', mood: '  brb  ' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ id: String(demoId), status: 'away', mood: 'brb' });
    // The panel posts its whole user object back.
    const whole = await post(ApiPath.chatUserData, { ...first.json<object>(), status: 'do-not-disturb' });
    expect(whole.json()).toMatchObject({ status: 'do-not-disturb', mood: 'brb' });
    expect((await get(ApiPath.chatUser)).json()).toMatchObject({ status: 'do-not-disturb', mood: 'brb' });
    // Alice is untouched.
    expect((await get(ApiPath.chatUser, aliceToken)).json()).toMatchObject({
      id: String(aliceId),
      status: 'online',
      mood: '',
    });
    await post(ApiPath.chatUserData, { status: 'online', mood: '' });
  });

  it('refuses bad user data with 40000 and another user with 40300', async () => {
    for (const payload of [
      { status: 'sleeping' },
      { status: 1 },
      { mood: 5 },
      { mood: 'x'.repeat(201) },
      { chatList: 'nope' },
      [],
    ]) {
      const response = await post(ApiPath.chatUserData, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ status: false, code: Code.InvalidRequest });
    }
    const other = await post(ApiPath.chatUserData, { id: String(aliceId), status: 'offline' });
    expect(other.statusCode).toBe(403);
    expect(other.json().code).toBe(Code.Forbidden);
    expect((await get(ApiPath.chatUser, aliceToken)).json().status).toBe('online');
  });
});

describe('conversations', () => {
  it('sends a message; with no staff online the automatic line says so, unread and pushed over the bus', async () => {
    const pushed: unknown[] = [];
    const unsubscribe = t.ctx.bus.subscribe(Topic.player(demoId), (m) => pushed.push(m));
    try {
      const response = await send('support', '  My machine froze  ');
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.message).toMatchObject({ who: String(demoId), message: 'My machine froze' });
      expect(Date.parse(body.message.time)).not.toBeNaN();
      expect(body.userChatList).toEqual([
        { chatId: `${demoId}-support`, contactId: 'support', lastMessageTime: body.message.time },
      ]);

      const contact = await waitFor(async () => {
        const c = (await get(ApiPath.chatContacts)).json().find((x: { id: string }) => x.id === 'support');
        return c.unread === 1 ? c : undefined;
      });
      expect(contact.unread).toBe(1);
      expect(pushed).toEqual([
        { event: 'info', data: { code: 20000, params: {}, message: 'chat', action: 'CHAT_MESSAGE' } },
      ]);
    } finally {
      unsubscribe();
    }

    const chat = await get(`${ApiPath.chatGetChat}?contactId=support&userId=${demoId}`);
    expect(chat.statusCode).toBe(200);
    const { chat: conversation, userChatList } = chat.json();
    expect(conversation.id).toBe(`${demoId}-support`);
    expect(conversation.dialog.map((m: { who: string; message: string }) => [m.who, m.message])).toEqual([
      [String(demoId), 'My machine froze'],
      ['support', chatNoStaffOnlineText.en],
    ]);
    expect(userChatList[0]).toMatchObject({
      chatId: `${demoId}-support`,
      contactId: 'support',
      lastMessageTime: conversation.dialog[1].time,
    });
    // Opening the chat read it.
    expect(
      (await get(ApiPath.chatContacts)).json().find((x: { id: string }) => x.id === 'support').unread,
    ).toBe(0);
    expect((await get(ApiPath.chatUser)).json().chatList).toHaveLength(1);
  });

  it('sends the automatic line once for a burst, in the language the message was sent in', async () => {
    const bobbyToken = await t.login('bobby', 'bobby1234');
    const bobbyId = (await t.ctx.db.query<{ id: number }>("SELECT id FROM players WHERE username = 'bobby'")).rows[0]!.id;
    const sendIn = (language: string, messageText: string) =>
      t.app.inject({
        method: 'POST',
        url: url(ApiPath.chatSendMessage),
        headers: { ...t.auth(bobbyToken), 'accept-language': language },
        payload: { chatId: `${bobbyId}-support`, contactId: 'support', messageText },
      });
    await sendIn('tr-TR,tr;q=0.9', 'bir');
    await sendIn('tr', 'iki');
    const dialog = await waitFor(async () => {
      const chat = (await get(`${ApiPath.chatGetChat}?contactId=support`, bobbyToken)).json();
      return chat.chat.dialog.length === 3 ? chat.chat.dialog : undefined;
    });
    expect(dialog.map((m: { who: string; message: string }) => [m.who, m.message])).toEqual([
      [String(bobbyId), 'bir'],
      [String(bobbyId), 'iki'],
      ['support', chatNoStaffOnlineText.tr],
    ]);
  });

  it("keeps conversations apart: alice never sees demo's messages", async () => {
    const chat = (await get(`${ApiPath.chatGetChat}?contactId=support`, aliceToken)).json();
    expect(chat.chat).toEqual({ id: `${aliceId}-support`, dialog: [] });
    expect(chat.userChatList).toEqual([]);
    expect(
      (await get(ApiPath.chatContacts, aliceToken)).json().every((c: { unread: number }) => c.unread === 0),
    ).toBe(true);
  });

  it('refuses empty, whitespace-only, missing and wrong-typed messages with 40000', async () => {
    for (const payload of [
      { chatId: `${demoId}-support`, contactId: 'support', messageText: '' },
      { chatId: `${demoId}-support`, contactId: 'support', messageText: '   \n\t ' },
      { chatId: `${demoId}-support`, contactId: 'support' },
      { chatId: `${demoId}-support`, messageText: 'hi' },
      { contactId: 'support', messageText: 'hi' },
      { chatId: `${demoId}-support`, contactId: 'support', messageText: 42 },
      { chatId: 7, contactId: 'support', messageText: 'hi' },
      { chatId: `${demoId}-support`, contactId: 'support', messageText: 'x'.repeat(2001) },
      { chatId: `${demoId}-other`, contactId: 'support', messageText: 'wrong pair' },
    ]) {
      const response = await post(ApiPath.chatSendMessage, payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(response.json()).toMatchObject({ status: false, code: Code.InvalidRequest });
    }
  });

  it('answers 40400 for an unknown contact or chat, 40300 for another player’s chat', async () => {
    const unknownContact = await send('support-99', 'hi');
    expect(unknownContact.statusCode).toBe(404);
    expect(unknownContact.json().code).toBe(Code.NotFound);
    const unknownChat = await post(ApiPath.chatSendMessage, {
      chatId: 'nonsense',
      contactId: 'support',
      messageText: 'hi',
    });
    expect(unknownChat.json().code).toBe(Code.NotFound);
    const foreign = await post(ApiPath.chatSendMessage, {
      chatId: `${aliceId}-support`,
      contactId: 'support',
      messageText: 'sneaky',
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().code).toBe(Code.Forbidden);
    const { rows } = await t.ctx.db.query(
      'SELECT count(*)::int AS n FROM chat_messages WHERE player_id = $1',
      [aliceId],
    );
    expect(rows[0].n).toBe(0);

    const noContact = await get(`${ApiPath.chatGetChat}?contactId=nobody`);
    expect(noContact.statusCode).toBe(404);
    expect(noContact.json().code).toBe(Code.NotFound);
    const otherUser = await get(`${ApiPath.chatGetChat}?contactId=support&userId=${aliceId}`);
    expect(otherUser.statusCode).toBe(403);
    expect(otherUser.json().code).toBe(Code.Forbidden);
    const missing = await get(ApiPath.chatGetChat);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe(Code.InvalidRequest);
    const tooLong = await get(`${ApiPath.chatGetChat}?contactId=${'s'.repeat(65)}`);
    expect(tooLong.json().code).toBe(Code.InvalidRequest);
  });

  it('answers 401 with 40102 without a valid token on every chat route', async () => {
    const calls = [
      { method: 'GET' as const, url: url(ApiPath.chatContacts) },
      { method: 'GET' as const, url: url(ApiPath.chatUser) },
      { method: 'POST' as const, url: url(ApiPath.chatUserData), payload: { status: 'online' } },
      { method: 'GET' as const, url: url(`${ApiPath.chatGetChat}?contactId=support`) },
      {
        method: 'POST' as const,
        url: url(ApiPath.chatSendMessage),
        payload: { chatId: `${demoId}-support`, contactId: 'support', messageText: 'hi' },
      },
    ];
    for (const call of calls) {
      for (const headers of [{}, { authorization: 'Bearer nope' }]) {
        const response = await t.app.inject({ ...call, headers });
        expect(response.statusCode, call.url).toBe(401);
        expect(response.json().code).toBe(Code.InvalidAccessToken);
      }
    }
  });
});
