/**
 * Issue 9.7: the browser channels check Origin (the site's own, plus WS_ALLOWED_ORIGINS), clients
 * without Origin keep working, and an operator's ban closes the player's sockets at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, WsCloseCode } from '@reel/protocol';
import { createTestApp, type TestApp } from './helper.js';
import { TestSocket, UpgradeRefused } from './ws-client.js';
import { FakeCabinets } from './doubles/fake-cabinets.js';
import { SessionManager } from '../src/modules/sessions/session-manager.js';
import { setBanned } from '../src/cli/operator-commands.js';
import { originAllowed } from '../src/plugins/ws-origin.js';

const ALLOWED = 'https://play.example.com';
let t: TestApp;
let port: number;
let machineId: number;
const cabinets = new FakeCabinets();

beforeAll(async () => {
  t = await createTestApp(
    (config) => {
      config.ws.allowedOrigins = [ALLOWED];
    },
    async (ctx) => {
      ctx.sessions = new SessionManager(ctx, cabinets, { grant: async () => null }, ctx.config.sessions);
      await ctx.sessions.start();
      const { rows } = await ctx.db.query<{ id: number }>('SELECT id FROM machines ORDER BY id LIMIT 1');
      machineId = rows[0]!.id;
      cabinets.connect(machineId);
    },
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(() => t.close());

const channels = ['/ws/game', '/ws/notifications'];

async function refusal(path: string, origin: string) {
  const error = await TestSocket.open(`ws://127.0.0.1:${port}${path}`, { origin }).then(
    (socket) => {
      void socket.close();
      return null;
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpgradeRefused);
  return error as UpgradeRefused;
}

describe('Origin of the browser channels', () => {
  for (const path of channels) {
    it(`${path}: a foreign origin is refused with 403 and code 40300`, async () => {
      for (const origin of [
        'http://evil.example',
        'null',
        `http://127.0.0.1:${port + 1}`,
        'https://play.example.com.evil.example',
      ]) {
        const refused = await refusal(path, origin);
        expect(refused.status).toBe(403);
        expect(JSON.parse(refused.body)).toMatchObject({ status: false, code: Code.Forbidden });
      }
    });

    it(`${path}: the site's own origin, a configured one, and no Origin at all are let in`, async () => {
      for (const origin of [`http://127.0.0.1:${port}`, `https://127.0.0.1:${port}`, ALLOWED, undefined]) {
        const socket = await TestSocket.open(`ws://127.0.0.1:${port}${path}`, origin ? { origin } : {});
        await socket.close();
      }
    });
  }

  it('the agent channel (machine key auth, no Origin) opens as before', async () => {
    const socket = await TestSocket.open(`ws://127.0.0.1:${port}/ws/agent`);
    await socket.close();
  });

  it('compares origins by scheme, host and port', () => {
    expect(originAllowed('http://Shop.Example:80', 'shop.example', [])).toBe(true);
    expect(originAllowed('https://shop.example', 'shop.example', [])).toBe(true);
    expect(originAllowed('http://shop.example:8080', 'shop.example', [])).toBe(false);
    expect(originAllowed('https://play.example.com:443', 'other', ['https://play.example.com'])).toBe(true);
    expect(originAllowed('http://play.example.com', 'other', ['https://play.example.com'])).toBe(false);
    expect(originAllowed('file://x', 'x', [])).toBe(false);
    expect(originAllowed('not a url', 'x', [])).toBe(false);
    expect(originAllowed('http://anything.example', 'x', ['*'])).toBe(true);
  });
});

describe('a ban', () => {
  it("closes the player's game and notification sockets within 2 s", async () => {
    const token = await t.login('alice', 'alice1234');
    const notifications = await TestSocket.open(`ws://127.0.0.1:${port}/ws/notifications?token=${token}`);
    await notifications.next('hello');
    const game = await TestSocket.open(`ws://127.0.0.1:${port}/ws/game`);
    await game.request({ event: 'init', data: { machineID: machineId, token, protocol: 1 } }, 'joined');

    const started = Date.now();
    // The operator command line's ban, as `npm run operator -- ban alice` runs it: its own
    // database statements, no in-process event; the server hears of it through PostgreSQL.
    await setBanned(t.ctx.db, 'alice', true);
    try {
      const [gameClosed, notificationsClosed] = await Promise.all([game.closed, notifications.closed]);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(gameClosed.code).toBe(WsCloseCode.InvalidToken);
      expect(notificationsClosed.code).toBe(WsCloseCode.InvalidToken);
      expect(notifications.messages.at(-1)).toMatchObject({
        event: 'logout',
        data: { code: Code.InvalidAccessToken },
      });
    } finally {
      await setBanned(t.ctx.db, 'alice', false);
    }
  });
});
