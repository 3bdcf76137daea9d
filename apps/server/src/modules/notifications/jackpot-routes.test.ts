/** The jackpot signal socket (`WsPath.jackpot`) with a real WebSocket client. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, WsCloseCode, WsPath } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';
import { TestSocket } from '../../../test/ws-client.js';
import { Topic } from '../../lib/bus.js';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}${WsPath.jackpot}`;
});
afterAll(() => t.close());

describe('jackpot signal socket', () => {
  it("sends every brand's jackpots on connect, then each change and hit", async () => {
    const token = await t.login();
    const socket = await TestSocket.open(`${base}?token=${encodeURIComponent(token)}`);
    const first = await socket.next('jackpots');
    const { rows } = await t.ctx.db.query<{ id: number }>('SELECT id FROM brands ORDER BY id');
    expect((first.data.brands as { brandId: number }[]).map((b) => b.brandId)).toEqual(rows.map((r) => r.id));
    const brand = (first.data.brands as { brandId: number; jackpot: string }[])[0]!;
    expect(brand.jackpot).toMatch(/^\d+(,\d+)*$/);

    t.ctx.bus.publish(Topic.lobby, { event: 'machine', data: { id: 1, status: 'playing' } });
    t.ctx.bus.publish(Topic.lobby, { event: 'jackpot', data: { brandId: brand.brandId, jackpot: '1,2,3' } });
    t.ctx.bus.publish(Topic.lobby, {
      event: 'jackpot',
      data: { brandId: brand.brandId, jackpot: '9,2,3', hit: { machineId: 1, amountCents: 500, level: 3 } },
    });
    await socket.next('jackpot', 5_000, 2);
    expect(socket.messages.map((m) => m.event)).toEqual(['jackpots', 'jackpot', 'jackpot']);
    expect(socket.messages[1]).toMatchObject({ data: { brandId: brand.brandId, jackpot: '1,2,3' }, seq: 2 });
    expect(socket.messages[2]).toMatchObject({ data: { hit: { machineId: 1, amountCents: 500, level: 3 } }, seq: 3 });
    socket.socket.close();
    await socket.closed;
  });

  it('refuses a missing, invalid or forged token with logout and close 4001', async () => {
    const forged = `${(await t.login()).slice(0, -4)}AAAA`;
    for (const [query, code] of [
      ['', Code.InvalidAccessToken],
      ['?token=nope', Code.InvalidAccessToken],
      [`?token=${forged}`, Code.SignatureNotVerified],
    ] as const) {
      const socket = await TestSocket.open(`${base}${query}`);
      expect((await socket.closed).code).toBe(WsCloseCode.InvalidToken);
      expect(socket.messages).toEqual([{ event: 'logout', data: { code }, seq: 1 }]);
    }
  });

  it('refuses a foreign page origin like the other browser channels', async () => {
    const token = await t.login();
    await expect(TestSocket.open(`${base}?token=${token}`, { origin: 'https://evil.example' })).rejects.toMatchObject({ status: 403 });
  });
});
