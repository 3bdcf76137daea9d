import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Code } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';

let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/ws/game`;
});
afterAll(() => t.close());

/** Sends messages once open and resolves with what came back and the close code. */
function exchange(messages: unknown[], expected = 1, waitMs = 3_000) {
  return new Promise<{ received: { event: string; data: any }[]; closeCode: number | null }>((resolve) => {
    const socket = new WebSocket(url);
    const received: { event: string; data: any }[] = [];
    let closeCode: number | null = null;
    socket.on('open', () => messages.forEach((m) => socket.send(typeof m === 'string' ? m : JSON.stringify(m))));
    const finish = () => {
      clearTimeout(timer);
      socket.close();
      resolve({ received, closeCode });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('message', (raw) => {
      received.push(JSON.parse(String(raw)));
      if (received.length >= expected) setTimeout(finish, 100);
    });
    socket.on('close', (code) => (closeCode = code));
  });
}

describe('game channel input', () => {
  it('a failed join answers a coded, fatal error and closes', async () => {
    const token = await t.login();
    const offline = await exchange([{ event: 'init', data: { machineID: 1, token, protocol: 1 } }]);
    expect(offline.received[0]).toMatchObject({ event: 'error', data: { code: Code.MachineNotAvailable, fatal: true } });
    expect(offline.closeCode).toBe(4002);

    const badToken = await exchange([{ event: 'init', data: { machineID: 1, token: 'nope', protocol: 1 } }]);
    expect(badToken.received[0]).toMatchObject({ event: 'error', data: { code: Code.InvalidAccessToken } });

    const badMachine = await exchange([{ event: 'init', data: { machineID: 'x', token, protocol: 1 } }]);
    expect(badMachine.received[0]).toMatchObject({ event: 'error', data: { code: Code.InvalidRequest } });

    const unknown = await exchange([{ event: 'init', data: { machineID: 99999, token, protocol: 1 } }]);
    expect(unknown.received[0]).toMatchObject({ event: 'error', data: { code: Code.NotFound } });
  });

  it('play before joining, junk and unknown events get 40000 without closing', async () => {
    const result = await exchange(['{junk', { event: 'spin', data: { commandId: 'a' } }, { event: 'nope', data: {} }], 3);
    expect(result.received.map((m) => m.data.code)).toEqual([Code.InvalidRequest, Code.InvalidRequest, Code.InvalidRequest]);
    expect(result.received.every((m) => m.data.fatal === false)).toBe(true);
  });

  it('the reconnect actions answer 40404 without an open session', async () => {
    const token = await t.login();
    for (const url of ['/api/player/kick', '/api/player/cancel']) {
      const response = await t.app.inject({ method: 'POST', url, payload: { machineId: 1 }, headers: t.auth(token) });
      expect(response.json().code).toBe(Code.NoOpenSession);
      const bad = await t.app.inject({ method: 'POST', url, payload: { machineId: 'one' }, headers: t.auth(token) });
      expect(bad.json().code).toBe(Code.InvalidRequest);
    }
    const open = await t.app.inject({ method: 'GET', url: '/api/player/session', headers: t.auth(token) });
    expect(open.json()).toMatchObject({ status: true, show: false, id: null });
  });
});
