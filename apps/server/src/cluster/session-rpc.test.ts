import { describe, expect, it } from 'vitest';
import { Code } from '@reel/protocol';
import { createLocalBus } from '../lib/bus.js';
import { AppError } from '../lib/errors.js';
import { SessionClient, SessionTopic, type SessionCall, type SessionReply } from './session-rpc.js';

describe('SessionClient', () => {
  it('asks the new owner at once when the owner its request went to is replaced (it died with the request)', async () => {
    const bus = createLocalBus();
    const client = new SessionClient(bus, 's2');
    bus.publish(SessionTopic.owner, { owner: 's1' });
    const asked: string[] = [];
    // s1 was killed holding the request: it never answers.
    const offDead = bus.respond(SessionTopic.call, async (message) => {
      asked.push(`s1:${(message as SessionCall).method}`);
      return new Promise<never>(() => {});
    });
    const answer = client.openSessionOf(7);
    await new Promise((r) => setTimeout(r, 20));
    offDead();
    bus.respond(SessionTopic.call, async (message) => {
      asked.push(`s3:${(message as SessionCall).method}`);
      return { owner: 's3', value: null } satisfies SessionReply;
    });
    const started = Date.now();
    bus.publish(SessionTopic.owner, { owner: 's3' });
    await expect(answer).resolves.toBeNull();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(asked).toEqual(['s1:openSessionOf', 's3:openSessionOf']);
    client.stop();
  });

  it('does not ask again when the same owner announces itself (its answer is awaited)', async () => {
    const bus = createLocalBus();
    const client = new SessionClient(bus, 's2');
    bus.publish(SessionTopic.owner, { owner: 's1' });
    let calls = 0;
    let release = () => {};
    bus.respond(SessionTopic.call, async () => {
      calls++;
      await new Promise<void>((r) => (release = r));
      return { owner: 's1', value: null } satisfies SessionReply;
    });
    const answer = client.leave(7);
    await new Promise((r) => setTimeout(r, 20));
    bus.publish(SessionTopic.owner, { owner: 's1' });
    release();
    await answer;
    expect(calls).toBe(1);
    client.stop();
  });

  it('a coded refusal of the owner reaches the route as that code, not asked again', async () => {
    const bus = createLocalBus();
    const client = new SessionClient(bus, 's2');
    let calls = 0;
    bus.respond(SessionTopic.call, async () => {
      calls++;
      throw new AppError(Code.NoOpenSession, 404);
    });
    // The local bus passes the thrown error through as it is; NATS turns it into a RemoteError (nats-bus.test.ts).
    await expect(client.cashOut(7)).rejects.toMatchObject({ code: Code.NoOpenSession });
    expect(calls).toBe(1);
    client.stop();
  });
});
