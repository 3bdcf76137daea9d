import { describe, expect, it, vi } from 'vitest';
import { Code } from '@reel/protocol';
import { createLocalBus } from '../lib/bus.js';
import { AppError } from '../lib/errors.js';
import { COMMAND_TIMEOUT_MS, type GameConnection } from '../modules/sessions/types.js';
import { CALL_TIMEOUT_MS, SessionClient, SessionTopic, type LocalOwner, type OwnerAnnouncement, type SessionCall, type SessionReply } from './session-rpc.js';

/** Player 7's open session is on machine 65: shard 1 of 64. */
const onMachine65 = async () => 65;
const announce = (bus: ReturnType<typeof createLocalBus>, owner: string, shards: [number, number][]) =>
  bus.publish(SessionTopic.owner, { owner, shards } satisfies OwnerAnnouncement);

describe('SessionClient', () => {
  it('asks the new owner of the shard at once when the owner its request went to is replaced (it died with the request)', async () => {
    const bus = createLocalBus();
    const client = new SessionClient(bus, 's2', onMachine65);
    announce(bus, 's1', [[1, 1]]);
    const asked: string[] = [];
    // s1 was killed holding the request: it never answers.
    const offDead = bus.respond(SessionTopic.call(1), async (message) => {
      asked.push(`s1:${(message as SessionCall).method}`);
      return new Promise<never>(() => {});
    });
    const answer = client.cashOut(7);
    await new Promise((r) => setTimeout(r, 20));
    offDead();
    bus.respond(SessionTopic.call(1), async (message) => {
      asked.push(`s3:${(message as SessionCall).method}`);
      return { owner: 's3', value: null } satisfies SessionReply;
    });
    const started = Date.now();
    announce(bus, 's3', [[1, 2]]);
    await expect(answer).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(asked).toEqual(['s1:cashOut', 's3:cashOut']);
    client.stop();
  });

  it('waits for a live owner as long as the owner itself waits (meters, then the cabinet): its spin result, not 50300', async () => {
    vi.useFakeTimers();
    try {
      const bus = createLocalBus();
      const client = new SessionClient(bus, 's2', onMachine65);
      announce(bus, 's1', [[1, 1]]);
      // The new owner of a moved shard: its cabinet's meters are verified just in time, the cabinet
      // answers the spin just in time (session-play.ts), and the owner answers a moment later.
      const ownerTakesMs = 2 * COMMAND_TIMEOUT_MS + 500;
      bus.respond(SessionTopic.call(1), async () => {
        await new Promise((r) => setTimeout(r, ownerTakesMs));
        return { owner: 's1', value: 'spun' } satisfies SessionReply;
      });
      const answer = client.spin(7, 'c1');
      answer.catch(() => {});
      await vi.advanceTimersByTimeAsync(ownerTakesMs + 1);
      await expect(answer).resolves.toBe('spun');
      expect(CALL_TIMEOUT_MS).toBeGreaterThan(ownerTakesMs);
      client.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not ask again when the same owner, another shard, or an earlier owner announces itself', async () => {
    const bus = createLocalBus();
    const client = new SessionClient(bus, 's2', onMachine65);
    announce(bus, 's1', [[1, 5]]);
    let calls = 0;
    let release = () => {};
    bus.respond(SessionTopic.call(1), async () => {
      calls++;
      await new Promise<void>((r) => (release = r));
      return { owner: 's1', value: null } satisfies SessionReply;
    });
    const answer = client.leave(7);
    await new Promise((r) => setTimeout(r, 20));
    announce(bus, 's1', [[1, 5]]);
    announce(bus, 's3', [[2, 9]]);
    // A late announcement of shard 1's owner before s1 (epoch 4) changes nothing.
    announce(bus, 's0', [[1, 4]]);
    release();
    await answer;
    expect(calls).toBe(1);
    client.stop();
  });

  it('a socket joined under a shard owner is closed (1012) when its shard moves, not when another shard does', async () => {
    const bus = createLocalBus();
    const client = new SessionClient(bus, 's2', onMachine65);
    announce(bus, 's1', [
      [1, 1],
      [2, 1],
    ]);
    for (const shard of [1, 2]) bus.respond(SessionTopic.call(shard), async () => ({ owner: 's1', value: null }) satisfies SessionReply);
    const closed: number[] = [];
    const socket = (shard: number): GameConnection => ({ send: () => {}, close: (code) => closed.push(shard * 10_000 + code) });
    await client.join(7, 65, socket(1));
    await client.join(8, 2, socket(2));
    announce(bus, 's3', [[2, 2]]);
    expect(closed).toEqual([2 * 10_000 + 1012]);
    client.stop();
  });

  it('a call on a player goes to the shard of the open session in the records, a floor call to the machine\'s shard', async () => {
    const bus = createLocalBus();
    const client = new SessionClient(bus, 's2', async (playerId) => (playerId === 7 ? 130 : null));
    const asked: string[] = [];
    for (const shard of [2, 3]) bus.respond(SessionTopic.call(shard), async (message) => {
      asked.push(`${shard}:${(message as SessionCall).method}`);
      return { owner: 's1', value: true } satisfies SessionReply;
    });
    await client.spin(7, 'c-1');
    expect((await client.ask(3, 'isHeld', [3])).value).toBe(true);
    // No open session anywhere: the player's call is refused here, nobody is asked.
    await expect(client.cashOut(8)).rejects.toMatchObject({ code: Code.NoOpenSession });
    await expect(client.openSessionOf(8)).resolves.toBeNull();
    expect(asked).toEqual(['2:spin', '3:isHeld']);
    client.stop();
  });

  it('a call on a shard this server serves is answered here with the socket itself; any other goes over the bus', async () => {
    const bus = createLocalBus();
    const here: string[] = [];
    const sockets: GameConnection[] = [];
    const local: LocalOwner = {
      call: async (shard, call, conn) => {
        if (shard !== 1) return undefined;
        here.push(call.method);
        if (conn) sockets.push(conn);
        return { owner: 's2', value: null };
      },
    };
    const client = new SessionClient(bus, 's2', onMachine65, local);
    const overBus: SessionCall[] = [];
    bus.respond(SessionTopic.call(2), async (message) => {
      overBus.push(message as SessionCall);
      return { owner: 's1', value: null } satisfies SessionReply;
    });
    const mine: GameConnection = { send: () => {}, close: () => {} };
    const relayed: GameConnection = { send: () => {}, close: () => {} };
    await client.join(7, 65, mine);
    await client.join(8, 2, relayed);
    await client.spin(7, 'c-1');
    expect(here).toEqual(['join', 'spin']);
    expect(sockets).toEqual([mine]);
    expect(overBus.map((c) => [c.method, c.conn?.server])).toEqual([['join', 's2']]);
    expect(client.relayedSockets()).toBe(1);
    client.stop();
  });

  it('a coded refusal of the owner reaches the route as that code, not asked again', async () => {
    const bus = createLocalBus();
    const client = new SessionClient(bus, 's2', onMachine65);
    let calls = 0;
    bus.respond(SessionTopic.call(1), async () => {
      calls++;
      throw new AppError(Code.MachineBusy, 409);
    });
    // The local bus passes the thrown error through as it is; NATS turns it into a RemoteError (nats-bus.test.ts).
    await expect(client.cashOut(7)).rejects.toMatchObject({ code: Code.MachineBusy });
    expect(calls).toBe(1);
    client.stop();
  });
});
