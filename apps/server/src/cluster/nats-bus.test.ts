/**
 * The bus contract, on the in-process bus and on NATS (the system NATS of CI / this machine; the
 * NATS half is skipped with its reason printed when none runs). Each NATS run uses its own subject
 * prefix, so parallel runs never hear each other.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BusError, createLocalBus, type Bus } from '../lib/bus.js';
import { AppError } from '../lib/errors.js';
import { createNatsBus, RemoteError } from './nats-bus.js';
import { clusterTestsMissing, natsUrl } from './nats-available.js';

const natsMissing = await clusterTestsMissing({ haproxy: false });
if (natsMissing) console.log(`[cluster] NATS bus tests skipped: ${natsMissing} (start nats-server or set NATS_URL)`);

const settle = () => new Promise((r) => setTimeout(r, 100));

/**
 * The positive signal after which a message that should not arrive would have: `from` publishes a
 * marker on `topic` (again, until `to` has one subscription that hears it), and messages from one
 * connection reach a subscriber in the order they were published.
 */
async function markerHeard(from: Bus, to: Bus, topic: string): Promise<void> {
  let heard = false;
  const off = to.subscribe(topic, () => (heard = true));
  for (let i = 0; !heard; i++) {
    if (i === 50) throw new Error(`the marker on ${topic} never arrived`);
    from.publish(topic, { marker: true });
    await settle();
  }
  off();
}

function contract(name: string, make: () => Promise<[Bus, Bus]>, remote: boolean) {
  describe(name, () => {
    let a: Bus;
    let b: Bus;
    beforeAll(async () => {
      [a, b] = await make();
    });
    afterAll(async () => {
      await a.close();
      if (b !== a) await b.close();
    });

    it('delivers a topic to its subscribers and every topic to subscribeAll', async () => {
      const heard: unknown[] = [];
      const all: [string, unknown][] = [];
      const off = b.subscribe('player.7', (m) => heard.push(m));
      const offAll = b.subscribeAll((topic, m) => all.push([topic, m]));
      await settle();
      a.publish('player.7', { event: 'balance', data: { balance: 5 } });
      a.publish('lobby', { event: 'machine', data: { id: 1 } });
      await settle();
      expect(heard).toEqual([{ event: 'balance', data: { balance: 5 } }]);
      expect(all).toEqual([
        ['player.7', { event: 'balance', data: { balance: 5 } }],
        ['lobby', { event: 'machine', data: { id: 1 } }],
      ]);
      off();
      offAll();
      a.publish('player.7', { late: true });
      await markerHeard(a, b, 'marker.unsubscribed');
      expect(heard).toHaveLength(1);
    });

    it("delivers a family's topics to subscribeFamily, in the order published alongside another subscription, and no other topic", async () => {
      const heard: string[] = [];
      const offFamily = b.subscribeFamily('player', (topic, m) => heard.push(`${topic}:${(m as { n: number }).n}`));
      const offLobby = b.subscribe('lobby', (m) => heard.push(`lobby:${(m as { n: number }).n}`));
      await settle();
      a.publish('player.7', { n: 1 });
      a.publish('lobby', { n: 2 });
      a.publish('players', { n: 3 });
      a.publish('player.7.extra', { n: 4 });
      a.publish('cab.events', { n: 5 });
      a.publish('player.8', { n: 6 });
      await markerHeard(a, b, 'marker.family');
      expect(heard).toEqual(['player.7:1', 'lobby:2', 'player.8:6']);
      offFamily();
      offLobby();
    });

    it('answers requests, passes coded failures back, and says when nobody answers', async () => {
      const off = b.respond('svc.double', async (m) => {
        const n = (m as { n: number }).n;
        if (n < 0) throw new AppError(40404, 404);
        return { doubled: n * 2 };
      });
      await settle();
      expect(await a.request('svc.double', { n: 21 })).toEqual({ doubled: 42 });
      const failure = await a.request('svc.double', { n: -1 }).catch((e: unknown) => e);
      if (remote) expect((failure as RemoteError).details).toMatchObject({ code: 40404, httpStatus: 404 });
      else expect(failure).toBeInstanceOf(AppError);
      off();
      // A listener of every topic (the notification hub) is no responder.
      const offAll = b.subscribeAll(() => {});
      await settle();
      const none = await a.request('svc.double', { n: 1 }, { timeoutMs: 500 }).catch((e: unknown) => e);
      offAll();
      expect(none).toBeInstanceOf(BusError);
      expect((none as BusError).reason).toBe('no_responder');
    });

    it('times out a request whose responder does not answer in time', async () => {
      const off = b.respond('svc.slow', () => new Promise((r) => setTimeout(() => r('late'), 1_000)));
      await settle();
      const late = await a.request('svc.slow', {}, { timeoutMs: 200 }).catch((e: unknown) => e);
      expect((late as BusError).reason).toBe('timeout');
      off();
    });
  });
}

contract('local bus', async () => {
  const bus = createLocalBus();
  return [bus, bus] as [Bus, Bus];
}, false);

describe.skipIf(natsMissing !== null)('NATS', () => {
  const prefix = `reel-t-${randomBytes(4).toString('hex')}`;
  contract('NATS bus between two connections', async () => [await createNatsBus({ servers: natsUrl(), prefix }), await createNatsBus({ servers: natsUrl(), prefix })] as [Bus, Bus], true);

  it('keeps prefixes apart: another cluster on the same NATS hears nothing', async () => {
    const mine = await createNatsBus({ servers: natsUrl(), prefix });
    const other = await createNatsBus({ servers: natsUrl(), prefix: `${prefix}-other` });
    const otherSender = await createNatsBus({ servers: natsUrl(), prefix: `${prefix}-other` });
    const heard: string[] = [];
    other.subscribeAll((topic) => heard.push(topic));
    // other hears its own cluster (its subscription is in place)...
    await markerHeard(otherSender, other, 'marker.before');
    mine.publish('lobby', {});
    // ...and mine's publish has been routed once mine's next one reached mine's own subscriber.
    await markerHeard(mine, mine, 'marker.after');
    await markerHeard(otherSender, other, 'marker.after');
    expect(heard.filter((topic) => !topic.startsWith('marker.'))).toEqual([]);
    await mine.close();
    await other.close();
    await otherSender.close();
  });

  it('a queue group answers each request once', async () => {
    const buses = await Promise.all([1, 2, 3].map(() => createNatsBus({ servers: natsUrl(), prefix })));
    let answers = 0;
    for (const bus of buses.slice(1)) bus.respond('svc.once', async () => ++answers, { group: 'g' });
    await settle();
    for (let i = 0; i < 10; i++) await buses[0]!.request('svc.once', {});
    expect(answers).toBe(10);
    await Promise.all(buses.map((bus) => bus.close()));
  });
});
