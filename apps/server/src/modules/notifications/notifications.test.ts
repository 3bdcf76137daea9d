import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Code } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';
import { Topic } from '../../lib/bus.js';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address() as { port: number };
  base = `ws://127.0.0.1:${address.port}/ws/notifications`;
});
afterAll(() => t.close());

/** Opens a socket and collects parsed messages. */
function connect(query: string) {
  const socket = new WebSocket(`${base}?${query}`);
  const messages: { event: string; data: any; seq: number }[] = [];
  const waiters: (() => void)[] = [];
  socket.on('message', (raw) => {
    messages.push(JSON.parse(String(raw)));
    waiters.splice(0).forEach((w) => w());
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  const until = async (predicate: () => boolean, timeoutMs = 3000) => {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`timed out; got ${JSON.stringify(messages)}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  };
  return { socket, messages, until, closed };
}

describe('notification channel', () => {
  it('pushes player and lobby messages with sequence numbers, and replays what a client missed', async () => {
    const token = await t.login();
    const demoId = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).id;
    const first = connect(`token=${token}`);
    await first.until(() => first.messages.some((m) => m.event === 'hello'));
    t.ctx.bus.publish(Topic.player(demoId), { event: 'balance', data: { balance: 1 } });
    t.ctx.bus.publish(Topic.player(demoId + 1000), { event: 'balance', data: { balance: 999 } });
    t.ctx.bus.publish(Topic.lobby, { event: 'machine', data: { id: 1, status: 'playing' } });
    await first.until(() => first.messages.length >= 3);
    const [, balance, machine] = first.messages;
    expect(balance).toMatchObject({ event: 'balance', data: { balance: 1 } });
    expect(machine).toMatchObject({ event: 'machine', data: { id: 1, status: 'playing' } });
    expect(machine!.seq).toBeGreaterThan(balance!.seq);
    first.socket.close();
    await first.closed;

    // While away: two more messages. Coming back with the last seq replays exactly those.
    t.ctx.bus.publish(Topic.player(demoId), { event: 'balance', data: { balance: 2 } });
    t.ctx.bus.publish(Topic.lobby, { event: 'machine', data: { id: 2, status: 'waiting' } });
    const again = connect(`token=${token}&lastSeq=${machine!.seq}`);
    await again.until(() => again.messages.length >= 3);
    expect(again.messages[0]).toMatchObject({ event: 'hello', data: { snapshot: false } });
    expect(again.messages.slice(1).map((m) => m.data)).toEqual([{ balance: 2 }, { id: 2, status: 'waiting' }]);
    again.socket.close();

    const stale = connect(`token=${token}&lastSeq=999999`);
    await stale.until(() => stale.messages.length >= 1);
    expect(stale.messages[0]).toMatchObject({ event: 'hello', data: { snapshot: true } });
    stale.socket.close();
  });

  it('refuses a bad token and closes on logout', async () => {
    const bad = connect('token=not-a-token');
    expect(await bad.closed).toBe(4001);
    expect(bad.messages[0]).toMatchObject({ event: 'logout', data: { code: Code.InvalidAccessToken } });
    // A token with a signature that does not verify: code 10 (docs/api.md, "Tokens").
    const forged = connect(`token=${(await t.login()).slice(0, -4)}AAAA`);
    expect(await forged.closed).toBe(4001);
    expect(forged.messages[0]).toMatchObject({ event: 'logout', data: { code: Code.SignatureNotVerified } });

    const token = await t.login('alice', 'alice1234');
    const live = connect(`token=${token}`);
    await live.until(() => live.messages.length >= 1);
    await t.app.inject({ method: 'POST', url: '/api/player/logout', headers: t.auth(token) });
    expect(await live.closed).toBe(4001);
    expect(live.messages.at(-1)).toMatchObject({ event: 'logout' });
  });

  it('accepts an init message instead of a query token', async () => {
    const token = await t.login('bobby', 'bobby1234');
    const socket = connect('');
    socket.socket.on('open', () => socket.socket.send(JSON.stringify({ event: 'init', data: { id: 0, token, protocol: 1 } })));
    await socket.until(() => socket.messages.some((m) => m.event === 'hello'));
    socket.socket.close();
  });
});
