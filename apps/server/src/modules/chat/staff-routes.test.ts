import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminChatPath, ApiPath, Code, chatNoStaffOnlineText } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';
import { Topic } from '../../lib/bus.js';
import { ACK_DELAY_MS } from './chat.js';

let t: TestApp;
let staffToken: string;
let playerToken: string;
let playerId: number;
let bobbyToken: string;
let bobbyId: number;

const at = (path: string, playerIdParam?: number) =>
  `/api${path.replace(':playerId', String(playerIdParam ?? playerId))}`;
const idOf = async (username: string) =>
  (await t.ctx.db.query<{ id: number }>('SELECT id FROM players WHERE username = $1', [username])).rows[0]!.id;
const contacts = async (token = playerToken) =>
  (await t.app.inject({ method: 'GET', url: ApiPath.chatContacts, headers: t.auth(token) })).json();
const setStatus = (status: string, token = staffToken) =>
  t.app.inject({ method: 'PUT', url: at(AdminChatPath.status), headers: t.auth(token), payload: { status } });
const playerSends = (messageText: string, token = playerToken, id = playerId) =>
  t.app.inject({
    method: 'POST',
    url: ApiPath.chatSendMessage,
    headers: t.auth(token),
    payload: { chatId: `${id}-support`, contactId: 'support', messageText },
  });
const dialogOf = async (token: string) =>
  (await t.app.inject({ method: 'GET', url: `${ApiPath.chatGetChat}?contactId=support`, headers: t.auth(token) })).json()
    .chat.dialog as { who: string; message: string }[];

async function waitFor<T>(probe: () => Promise<T | undefined>, ms = ACK_DELAY_MS * 4): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  t = await createTestApp();
  staffToken = await t.operatorLogin('staff1', 'staff1234');
  playerToken = await t.login('demo', 'demo1234');
  bobbyToken = await t.login('bobby', 'bobby1234');
  playerId = await idOf('demo');
  bobbyId = await idOf('bobby');
});
afterAll(() => t.close());

describe('the console support chat', () => {
  it('refuses a player token on every staff chat route with 403 40304', async () => {
    const calls = [
      { method: 'GET' as const, url: at(AdminChatPath.conversations) },
      { method: 'GET' as const, url: at(AdminChatPath.conversation) },
      { method: 'POST' as const, url: at(AdminChatPath.reply), payload: { message: 'hi' } },
      { method: 'PUT' as const, url: at(AdminChatPath.status), payload: { status: 'online' } },
    ];
    for (const call of calls) {
      const response = await t.app.inject({ ...call, headers: t.auth(playerToken) });
      expect(response.statusCode, call.url).toBe(403);
      expect(response.json().code).toBe(Code.RoleNotAllowed);
    }
  });

  it("shows the player the desk with the staff member's real status and name", async () => {
    const online = await setStatus('online');
    expect(online.statusCode).toBe(200);
    expect(online.json()).toEqual({ status: 'online', deskStatus: 'online' });
    expect(await contacts()).toEqual([
      { id: 'support', name: 'Support', avatar: '', status: 'online', mood: 'staff1', unread: 0 },
    ]);
    await setStatus('do-not-disturb');
    expect((await contacts())[0]).toMatchObject({ status: 'do-not-disturb', mood: '' });
    expect((await setStatus('sleeping')).json().code).toBe(Code.InvalidRequest);
  });

  it('lets staff read every conversation and reply; the reply is pushed to the player, unread', async () => {
    await setStatus('online');
    expect((await playerSends('my reels froze')).statusCode).toBe(200);
    const list = (await t.app.inject({ method: 'GET', url: at(AdminChatPath.conversations), headers: t.auth(staffToken) })).json();
    expect(list[0]).toMatchObject({ playerId, username: 'demo', lastMessage: 'my reels froze', waiting: true });

    const pushed: unknown[] = [];
    const unsubscribe = t.ctx.bus.subscribe(Topic.player(playerId), (m) => pushed.push(m));
    const reply = await t.app.inject({
      method: 'POST',
      url: at(AdminChatPath.reply),
      headers: t.auth(staffToken),
      payload: { message: '  Looking at it now  ' },
    });
    unsubscribe();
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toMatchObject({ from: 'staff', staffName: 'staff1', message: 'Looking at it now' });
    expect(pushed).toEqual([
      { event: 'info', data: { code: Code.Success, params: {}, message: 'chat', action: 'CHAT_MESSAGE' } },
    ]);
    expect((await contacts())[0].unread).toBe(1);
    expect((await dialogOf(playerToken)).map((m) => [m.who, m.message])).toEqual([
      [String(playerId), 'my reels froze'],
      ['support', 'Looking at it now'],
    ]);
    const thread = (await t.app.inject({ method: 'GET', url: at(AdminChatPath.conversation), headers: t.auth(staffToken) })).json();
    expect(thread.map((m: { from: string }) => m.from)).toEqual(['player', 'staff']);
  });

  it('sends no automatic line while a staff member is online, and one saying so once nobody is', async () => {
    // Demo's earlier staff reply would hold back an automatic line anyway: start from none.
    await t.ctx.db.query('DELETE FROM chat_messages WHERE player_id = $1', [playerId]);
    await setStatus('online');
    await playerSends('still there?');
    await setStatus('away');
    // The positive signal: bobby, writing later while nobody is online, gets the automatic line;
    // any line for demo's message would have been due before it.
    await playerSends('hello?', bobbyToken, bobbyId);
    await waitFor(async () => ((await dialogOf(bobbyToken)).length === 2 ? true : undefined));
    expect((await dialogOf(bobbyToken))[1]!.message).toBe(chatNoStaffOnlineText.en);
    expect((await dialogOf(playerToken)).some((m) => m.message === chatNoStaffOnlineText.en)).toBe(false);
  });

  it('answers 404 for a reply to a player who does not exist and 400 for an empty reply', async () => {
    const unknown = await t.app.inject({
      method: 'POST',
      url: at(AdminChatPath.reply, 999_999),
      headers: t.auth(staffToken),
      payload: { message: 'hi' },
    });
    expect(unknown.statusCode).toBe(404);
    const empty = await t.app.inject({
      method: 'POST',
      url: at(AdminChatPath.reply),
      headers: t.auth(staffToken),
      payload: { message: '   ' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().code).toBe(Code.InvalidRequest);
  });
});
