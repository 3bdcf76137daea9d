import type { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { createLocalBus, Topic } from '../../lib/bus.js';
import { createNotificationHub, type NotificationHub } from './hub.js';
import { streamOf, textFrame } from './turn-batch.js';
import { pushWatchers } from './lobby-pushes.js';

interface Received {
  event: string;
  data: any;
  seq: number;
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A hub on the in-process bus with one real WebSocket pair per player (no HTTP app, no database):
 * what is measured is what reaches the kernel, so the server side's TCP writes are counted.
 */
async function setup(firstSeq = 100) {
  const bus = createLocalBus();
  const hub: NotificationHub = createNotificationHub(bus, { firstSeq });
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())), () => hub.close());
  const port = (server.address() as { port: number }).port;

  async function connect(playerId: number) {
    const accepted = new Promise<WebSocket>((resolve) => server.once('connection', resolve));
    const client = new WebSocket(`ws://127.0.0.1:${port}`);
    const messages: Received[] = [];
    const closed = new Promise<number>((resolve) => client.on('close', (code) => resolve(code)));
    client.on('message', (raw) => messages.push(JSON.parse(String(raw)) as Received));
    const socket = await accepted;
    await new Promise((resolve) => client.once('open', resolve));
    // Every write that reaches the TCP handle: one per frame unless frames are coalesced.
    const stream = streamOf(socket) as Writable & { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void };
    const writes = { count: 0 };
    for (const method of ['_write', '_writev'] as const) {
      const original = stream[method];
      stream[method] = (...args: unknown[]) => {
        writes.count++;
        original.apply(stream, args);
      };
    }
    hub.attach(socket, { playerId, jti: `jti-${playerId}` });
    cleanups.push(() => client.terminate());
    const until = async (predicate: () => boolean) => {
      const deadline = Date.now() + 3_000;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`timed out; got ${JSON.stringify(messages)}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    await until(() => messages.length === 1);
    writes.count = 0;
    return { messages, writes, until, closed };
  }
  return { bus, connect };
}

describe('notification hub batching', () => {
  it('coalesces the frames of one turn into one write per socket, each frame its own message in seq order', async () => {
    const { bus, connect } = await setup(100);
    const viewer = await connect(1);
    const other = await connect(2);
    expect(viewer.messages[0]).toMatchObject({ event: 'hello', seq: 100 });

    for (let i = 0; i < 20; i++) bus.publish(Topic.lobby, { event: 'machine', data: { id: i, status: 'playing' } });
    bus.publish(Topic.player(1), { event: 'balance', data: { balance: 5 } });
    await viewer.until(() => viewer.messages.length === 22);
    await other.until(() => other.messages.length === 21);

    expect(viewer.messages.slice(1).map((m) => m.seq)).toEqual(Array.from({ length: 21 }, (_, i) => 101 + i));
    expect(viewer.messages.slice(1, 21).map((m) => m.data.id)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(viewer.messages[21]).toMatchObject({ event: 'balance', data: { balance: 5 }, seq: 121 });
    // The other player sees the lobby messages, not player 1's balance.
    expect(other.messages.slice(1).map((m) => m.seq)).toEqual(Array.from({ length: 20 }, (_, i) => 101 + i));
    // Player 1's balance took the waiting lobby states with it: one write. The other player got the
    // first change at once and the other 19, conflated, in one write 100 ms later (lobby-conflation.ts).
    expect(viewer.writes.count).toBe(1);
    expect(other.writes.count).toBe(2);
  });

  it('writes again in the next turn', async () => {
    const { bus, connect } = await setup(0);
    const viewer = await connect(1);
    bus.publish(Topic.lobby, { event: 'machine', data: { id: 1, status: 'playing' } });
    await viewer.until(() => viewer.messages.length === 2);
    bus.publish(Topic.lobby, { event: 'machine', data: { id: 1, status: 'available' } });
    bus.publish(Topic.lobby, { event: 'machine', data: { id: 2, status: 'playing' } });
    await viewer.until(() => viewer.messages.length === 4);
    expect(viewer.messages.map((m) => m.seq)).toEqual([0, 1, 2, 3]);
    expect(viewer.writes.count).toBe(2);
  });

  it('still closes a socket whose backlog passes the limit within one turn', async () => {
    const { bus, connect } = await setup(0);
    const viewer = await connect(1);
    // Corked frames count as unsent bytes: once messages of just over 1 MB written in one turn put
    // the backlog past 4 MB, the next closes the socket instead of being queued. (The player's own
    // messages: lobby states would wait for the next batch, which is checked the same way.)
    const big = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 8; i++) bus.publish(Topic.player(1), { event: 'balance', data: { id: i, note: big } });
    expect(await viewer.closed).toBe(1013);
    const got = viewer.messages.slice(1).map((m) => m.seq);
    expect(got.length).toBeLessThan(8);
    expect(got).toEqual(Array.from({ length: got.length }, (_, i) => i + 1));
  });

  it('sends logout before closing a socket whose token is revoked', async () => {
    const { bus, connect } = await setup(0);
    const viewer = await connect(1);
    bus.publish(Topic.lobby, { event: 'machine', data: { id: 1, status: 'playing' } });
    bus.publish(Topic.tokenRevoked, { playerId: 1, jti: 'jti-1' });
    expect(await viewer.closed).toBe(4001);
    expect(viewer.messages.slice(1).map((m) => m.event)).toEqual(['machine', 'logout']);
  });
});

describe('lobby pushes conflated (issue 29)', () => {
  it('status, watcher counts and queue lengths: at most one write per 100 ms per socket, the final state of each delivered', async () => {
    const { bus, connect } = await setup(0);
    const viewer = await connect(1);
    const started = Date.now();
    // 300 changes in about 300 ms over 3 machines: statuses, watcher counts, queue lengths.
    for (let i = 0; i < 300; i++) {
      const id = 1 + (i % 3);
      if (i % 3 === 0) bus.publish(Topic.lobby, { event: 'machine', data: { id, status: i % 2 ? 'playing' : 'available' } });
      else if (i % 3 === 1) pushWatchers(bus, id, i);
      else bus.publish(Topic.lobby, { event: 'machine', data: { id, status: 'playing', queue: i } });
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    // The final state of each machine's status (with its queue length) and watcher count.
    const last = [
      { event: 'machine', data: { id: 1, status: 'playing' } },
      { event: 'watchers', data: { id: 2, count: 298 } },
      { event: 'machine', data: { id: 3, status: 'playing', queue: 299 } },
    ];
    const latest = (event: string, id: number) => viewer.messages.findLast((m) => m.event === event && (m.data as { id?: number } | undefined)?.id === id)?.data;
    await viewer.until(() => last.every(({ event, data }) => JSON.stringify(latest(event, data.id)) === JSON.stringify(data)));
    const elapsed = Date.now() - started;
    // One write per 100 ms at most (plus the first, sent at once); far fewer messages than changes.
    expect(viewer.writes.count).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 1);
    expect(viewer.messages.length - 1).toBeLessThan(150);
    const seqs = viewer.messages.slice(1).map((m) => m.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });
});

describe('one lobby batch for every socket (issue 29)', () => {
  it("a player's own message goes at once behind the lobby states that wait, and the next batch does not repeat them", async () => {
    const { bus, connect } = await setup(0);
    const player = await connect(1);
    const onlooker = await connect(2);
    bus.publish(Topic.lobby, { event: 'machine', data: { id: 1, status: 'playing' } }); // seq 1: at once
    bus.publish(Topic.lobby, { event: 'machine', data: { id: 1, status: 'available' } }); // seq 2: waits for the batch
    bus.publish(Topic.player(1), { event: 'balance', data: { balance: 5 } }); // seq 3: now, after seq 2
    await player.until(() => player.messages.length === 4);
    expect(player.messages.map((m) => m.seq)).toEqual([0, 1, 2, 3]);
    // The batch brings seq 2 to the onlooker; a later change reaches both, and nobody got a seq twice.
    await onlooker.until(() => onlooker.messages.some((m) => m.seq === 2));
    bus.publish(Topic.lobby, { event: 'machine', data: { id: 2, status: 'playing' } }); // seq 4
    await player.until(() => player.messages.some((m) => m.seq === 4));
    await onlooker.until(() => onlooker.messages.some((m) => m.seq === 4));
    expect(player.messages.map((m) => m.seq)).toEqual([0, 1, 2, 3, 4]);
    expect(onlooker.messages.map((m) => m.seq)).toEqual([0, 1, 2, 4]);
  });

  it('a socket that connects while states wait gets the next batch without what its hello already covers', async () => {
    const { bus, connect } = await setup(0);
    const early = await connect(1);
    bus.publish(Topic.lobby, { event: 'machine', data: { id: 1, status: 'playing' } }); // seq 1: at once
    bus.publish(Topic.lobby, { event: 'machine', data: { id: 1, status: 'available' } }); // seq 2: waits
    const late = await connect(2); // hello at seq 2: its lobby comes by REST (snapshot)
    bus.publish(Topic.lobby, { event: 'watchers', data: { id: 1, count: 3 } }); // seq 3: waits too
    await early.until(() => early.messages.some((m) => m.seq === 3));
    await late.until(() => late.messages.some((m) => m.seq === 3));
    expect(early.messages.map((m) => m.seq)).toEqual([0, 1, 2, 3]);
    expect(late.messages.map((m) => m.seq)).toEqual([2, 3]);
  });
});

describe('textFrame', () => {
  it('uses the 7-, 16- and 64-bit length forms a client expects', () => {
    expect([...textFrame(Buffer.alloc(125)).subarray(0, 2)]).toEqual([0x81, 125]);
    expect([...textFrame(Buffer.alloc(300)).subarray(0, 4)]).toEqual([0x81, 126, 0x01, 0x2c]);
    expect([...textFrame(Buffer.alloc(70_000)).subarray(0, 10)]).toEqual([0x81, 127, 0, 0, 0, 0, 0, 0x01, 0x11, 0x70]);
    expect(textFrame(Buffer.from('hi')).length).toBe(4);
  });
});
