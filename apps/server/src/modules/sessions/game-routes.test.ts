import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ActionCode, Code, PROTOCOL_VERSION, WsCloseCode, WsPath } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';
import { checkSent } from '../../../test/protocol-drift.js';
import { SlotMachine } from '../../../../cabinet/src/game/machine.js';
import { AgentClient } from '../../../../cabinet/src/agent/agent-client.js';
import { machineCredits, OperationKind, walletBalance } from '../ledger/ledger.js';
import { transfer } from '../ledger/ledger-service.js';

let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/ws/game`;
});
afterAll(() => t.close());

/**
 * Sends messages once open and resolves when `expected` answers have come and, unless `staysOpen`,
 * the server has closed the socket: no fixed pause decides whether a close came. `waitMs` only
 * bounds a run that never gets there (the result then shows what was missing).
 */
function exchange(messages: unknown[], expected = 1, { staysOpen = false, waitMs = 15_000 } = {}) {
  return new Promise<{ received: { event: string; data: any }[]; closeCode: number | null }>((resolve) => {
    const socket = new WebSocket(url);
    const received: { event: string; data: any }[] = [];
    let closeCode: number | null = null;
    socket.on('open', () =>
      messages.forEach((m) => socket.send(typeof m === 'string' ? m : JSON.stringify(m))),
    );
    const finish = () => {
      clearTimeout(timer);
      socket.close();
      resolve({ received, closeCode });
    };
    const timer = setTimeout(finish, waitMs);
    const finishWhenDone = () => {
      if (received.length >= expected && (staysOpen || closeCode !== null)) finish();
    };
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw));
      checkSent(WsPath.game, message.event, message.data);
      received.push(message);
      finishWhenDone();
    });
    socket.on('close', (code) => {
      closeCode = code;
      finishWhenDone();
    });
  });
}

describe('game channel input', () => {
  it('a failed join answers a coded, fatal error and closes', async () => {
    const token = await t.login();
    const offline = await exchange([{ event: 'init', data: { machineID: 1, token, protocol: 1 } }]);
    expect(offline.received[0]).toMatchObject({
      event: 'error',
      data: { code: Code.MachineNotAvailable, fatal: true },
    });
    expect(offline.closeCode).toBe(4002);

    const badToken = await exchange([{ event: 'init', data: { machineID: 1, token: 'nope', protocol: 1 } }]);
    expect(badToken.received[0]).toMatchObject({ event: 'error', data: { code: Code.InvalidAccessToken, fatal: true } });
    expect(badToken.closeCode).not.toBeNull();

    const badMachine = await exchange([{ event: 'init', data: { machineID: 'x', token, protocol: 1 } }]);
    expect(badMachine.received[0]).toMatchObject({ event: 'error', data: { code: Code.InvalidRequest, fatal: true } });
    expect(badMachine.closeCode).not.toBeNull();

    const unknown = await exchange([{ event: 'init', data: { machineID: 99999, token, protocol: 1 } }]);
    expect(unknown.received[0]).toMatchObject({ event: 'error', data: { code: Code.NotFound, fatal: true } });
    expect(unknown.closeCode).not.toBeNull();
  });

  it('an init of another protocol version: a fatal 42600 naming both versions, and close 4004', async () => {
    const token = await t.login();
    const other = PROTOCOL_VERSION + 1;
    const result = await exchange([{ event: 'init', data: { machineID: 1, token, protocol: other } }]);
    expect(result.received[0]).toMatchObject({
      event: 'error',
      data: {
        code: Code.ProtocolMismatch,
        fatal: true,
        Params: { protocol: other, expected: PROTOCOL_VERSION },
      },
    });
    expect(result.received[0]!.data.ErrorMessage).toContain(String(other));
    expect(result.closeCode).toBe(WsCloseCode.ProtocolMismatch);
    // Checked before the token: a stale page learns to reload, not that it is signed out.
    const noToken = await exchange([{ event: 'init', data: { machineID: 1, token: 'nope', protocol: 0 } }]);
    expect(noToken.received[0]).toMatchObject({ event: 'error', data: { code: Code.ProtocolMismatch } });
    expect(noToken.closeCode).toBe(WsCloseCode.ProtocolMismatch);
  });

  it('play before joining, junk and unknown events get 40000 without closing', async () => {
    const result = await exchange(
      [
        '{junk',
        { event: 'spin', data: { commandId: 'a' } },
        { event: 'nope', data: {} },
        { event: 'view', data: { videoType: 'webcam' } },
        { event: 'view', data: { videoType: 'camera' } },
        // Answered too: the socket outlived the five before it.
        '{junk again',
      ],
      6,
      { staysOpen: true },
    );
    expect(result.received.map((m) => m.data.code)).toEqual(Array(6).fill(Code.InvalidRequest));
    expect(result.received.every((m) => m.data.fatal === false)).toBe(true);
    expect(result.closeCode).toBeNull();
  });

  it('the reconnect actions answer 40404 without an open session', async () => {
    const token = await t.login();
    for (const url of ['/api/player/kick', '/api/player/cancel']) {
      const response = await t.app.inject({
        method: 'POST',
        url,
        payload: { machineId: 1 },
        headers: t.auth(token),
      });
      expect(response.json().code).toBe(Code.NoOpenSession);
      const bad = await t.app.inject({
        method: 'POST',
        url,
        payload: { machineId: 'one' },
        headers: t.auth(token),
      });
      expect(bad.json().code).toBe(Code.InvalidRequest);
    }
    const open = await t.app.inject({ method: 'GET', url: '/api/player/session', headers: t.auth(token) });
    expect(open.json()).toMatchObject({ status: true, show: false, id: null });
  });
});

describe('money frames on the game channel', () => {
  it('three cashin frames of 10,000.00 sent together: two are accepted, the third is refused with 40205 (limit 25,000.00)', async () => {
    // A real simulated cabinet on the app's agent channel.
    const port = (t.app.server.address() as { port: number }).port;
    const keys = JSON.parse(
      fs.readFileSync(path.join(t.ctx.config.dataDir, 'machine-keys.json'), 'utf8'),
    ) as Record<string, string>;
    const machine = new SlotMachine({
      machineId: 1,
      timing: { spinDurationMs: 5, reelStaggerMs: 1, autoplayGapMs: 2, cashOutDurationMs: 2 },
    });
    const agent = new AgentClient({
      url: `ws://127.0.0.1:${port}/ws/agent`,
      agentId: 'test',
      machines: [{ machine, key: keys['1']!, stream: null, videoType: 'screen', bands: [] }],
    });
    agent.start();
    try {
      const until = async (check: () => boolean | Promise<boolean>, what: string) => {
        const deadline = Date.now() + 10_000;
        while (!(await check())) {
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
          await new Promise((r) => setTimeout(r, 20));
        }
      };
      await until(() => t.ctx.sessions.machineView(1).cabinetState === 'idle', 'the cabinet');
      const token = await t.login('bobby', 'bobby1234');
      const bob = (await t.ctx.db.query<{ id: number }>("SELECT id FROM players WHERE username = 'bobby'"))
        .rows[0]!.id;
      await transfer(t.ctx, {
        kind: OperationKind.Deposit,
        actionCode: ActionCode.Deposit,
        playerId: bob,
        from: { kind: 'cashier' },
        to: { kind: 'wallet', playerId: bob },
        amountCents: 3_000_000,
      });
      const before = (await walletBalance(t.ctx.db, bob)).balance;

      const socket = new WebSocket(url);
      const received: { event: string; data: any }[] = [];
      socket.on('message', (raw) => {
        const message = JSON.parse(String(raw));
        checkSent(WsPath.game, message.event, message.data);
        received.push(message);
      });
      await new Promise((resolve) => socket.on('open', resolve));
      socket.send(JSON.stringify({ event: 'init', data: { machineID: 1, token, protocol: 1 } }));
      await until(() => received.some((m) => m.event === 'joined'), 'joined');
      // All three in one go: they reach the server back to back.
      for (const n of [1, 2, 3])
        socket.send(
          JSON.stringify({ event: 'cashin', data: { amountCents: 1_000_000, idempotencyKey: `par-${n}` } }),
        );
      await until(
        () => received.filter((m) => m.event === 'cashedIn' || m.event === 'error').length === 3,
        'three answers',
      );
      expect(received.filter((m) => m.event === 'cashedIn')).toHaveLength(2);
      expect(received.filter((m) => m.event === 'error').map((m) => m.data)).toEqual([
        expect.objectContaining({ code: Code.CashInLimit, fatal: false }),
      ]);
      expect(machine.meters.creditsCents).toBe(2_000_000);
      expect(await machineCredits(t.ctx.db, 1)).toBe(2_000_000);
      expect((await walletBalance(t.ctx.db, bob)).balance).toBe(before - 2_000_000);

      socket.send(JSON.stringify({ event: 'leave', data: {} }));
      await until(() => received.some((m) => m.event === 'closed'), 'closed');
      expect((await walletBalance(t.ctx.db, bob)).balance).toBe(before);
      socket.close();
    } finally {
      await agent.stop();
      machine.dispose();
    }
  });
});
