/**
 * The notification channel. Every message for a player or for the lobby gets a sequence number in
 * one stream and is kept in a ring buffer, so a client that reconnects with its last `seq` receives
 * exactly what it missed (its own and lobby messages), or a `snapshot: true` hello when the buffer no
 * longer reaches back that far and it must reload by REST.
 */
import type { WebSocket } from 'ws';
import { Code, PROTOCOL_VERSION, WsCloseCode, type NotificationServerEvents, type Params } from '@reel/protocol';
import { Topic, type Bus } from '../../lib/bus.js';
import { createTurnBatcher, directStream, textFrame } from './turn-batch.js';
import { conflationKey, LobbyBatch } from './lobby-conflation.js';

type EventName = keyof NotificationServerEvents;
interface Logged {
  seq: number;
  /** null: a lobby message for everyone. */
  playerId: number | null;
  event: EventName;
  data: unknown;
  /** Serialized (and framed) once, on the first socket it goes to. */
  frame?: Buffer;
  wire?: Buffer;
}
interface Client {
  socket: WebSocket;
  playerId: number;
  jti: string;
  /** The last seq written to this socket: a lobby batch skips what the socket already got. */
  sentSeq: number;
}

/** A player's own topic, `player.<id>` (Topic.player). */
const PLAYER_TOPIC = new RegExp(`^${Topic.players}\\.(\\d+)$`);
/** Unsent bytes a notification socket may pile up before it is closed as too slow. */
const MAX_BACKLOG_BYTES = 4 * 1024 * 1024;

/**
 * `firstSeq`: where this hub's numbers start. Several servers each number their own stream; a random
 * start per server keeps a client's `lastSeq` from another server out of this one's range, so it
 * gets a snapshot instead of a wrong replay.
 */
export function createNotificationHub(bus: Bus, options: { bufferSize?: number; firstSeq?: number } = {}) {
  const bufferSize = options.bufferSize ?? 5_000;
  const log: Logged[] = [];
  let seq = options.firstSeq ?? 0;
  const clients = new Set<Client>();
  // Frames of one turn for one socket leave in one write (turn-batch.ts): one write syscall per
  // socket per message was what limited the fan-out to thousands of lobby sockets.
  const batch = createTurnBatcher();

  const send = (client: Client, entry: { event: string; data: unknown; seq: number }) => {
    if (client.socket.readyState !== client.socket.OPEN) return;
    batch.hold(client.socket);
    client.socket.send(JSON.stringify(entry));
  };

  // Serialized and framed once for every socket it goes to: with thousands of lobby viewers, encoding
  // per socket was most of the cost of a status change, and ws.send builds a header and queues two
  // chunks per socket per message (cluster bench: ~0.9 s → ~0.35 s a server).
  const frameOf = (entry: Logged) =>
    (entry.frame ??= Buffer.from(JSON.stringify({ seq: entry.seq, playerId: entry.playerId, event: entry.event, data: entry.data })));
  const wireOf = (entry: Logged) => (entry.wire ??= textFrame(frameOf(entry)));

  // A socket that cannot keep up would hold its backlog in this server's memory for ever:
  // it is closed instead, and its client reconnects with its last seq (replay or snapshot).
  const tooSlow = (client: Client) => {
    if (client.socket.bufferedAmount <= MAX_BACKLOG_BYTES) return false;
    client.socket.close(1013, 'too slow');
    return true;
  };

  /** Writes the entries this socket has not had yet (entries in stream order), each its own frame. */
  const writeEntries = (client: Client, entries: readonly Logged[], joined?: { wire: Buffer; offsets: number[] }) => {
    if (client.socket.readyState !== client.socket.OPEN) return;
    let from = 0;
    while (from < entries.length && entries[from]!.seq <= client.sentSeq) from++;
    if (from === entries.length || tooSlow(client)) return;
    client.sentSeq = entries[entries.length - 1]!.seq;
    batch.hold(client.socket);
    const stream = directStream(client.socket);
    if (stream && joined) stream.write(from === 0 ? joined.wire : joined.wire.subarray(joined.offsets[from]));
    else if (stream) for (const entry of entries.slice(from)) stream.write(wireOf(entry));
    else for (const entry of entries.slice(from)) client.socket.send(frameOf(entry), { binary: false });
  };

  // One batch for the whole lobby: its frames are joined once and the same bytes go to every socket.
  const lobby = new LobbyBatch<Logged>((entries) => {
    const frames = entries.map(wireOf);
    const offsets: number[] = [];
    let at = 0;
    for (const frame of frames) {
      offsets.push(at);
      at += frame.length;
    }
    const joined = { wire: frames.length === 1 ? frames[0]! : Buffer.concat(frames, at), offsets };
    for (const client of clients) writeEntries(client, entries, joined);
  });

  // One stream for the player topics and the lobby (on NATS, one connection delivers both in the
  // order they were published); every other topic of the bus never reaches this server for it.
  const onMessage = (topic: string, message: unknown) => {
    const match = PLAYER_TOPIC.exec(topic);
    const playerId = match ? Number(match[1]) : topic === Topic.lobby ? null : undefined;
    if (playerId === undefined) return;
    const { event, data } = message as { event: EventName; data: unknown };
    const entry: Logged = { seq: ++seq, playerId, event, data };
    log.push(entry);
    if (log.length > bufferSize) log.splice(0, log.length - bufferSize);
    if (playerId === null) {
      const key = conflationKey(event, data);
      if (key !== null) return lobby.offer(key, entry);
      // A lobby event: after every state that waits, to everyone.
      lobby.flush();
      for (const client of clients) writeEntries(client, [entry]);
      return;
    }
    // The player's own message goes now, behind the lobby states waiting for the next batch.
    const entries = [...lobby.waiting(), entry];
    for (const client of clients) if (client.playerId === playerId) writeEntries(client, entries);
  };
  const unsubscribeTopics = [bus.subscribeFamily(Topic.players, onMessage), bus.subscribe(Topic.lobby, (message) => onMessage(Topic.lobby, message))];

  const unsubscribeRevoked = bus.subscribe(Topic.tokenRevoked, (message) => {
    const { jti, playerId, code, params } = message as { jti?: string; playerId: number; code?: number; params?: Params };
    for (const client of clients) {
      if (client.playerId === playerId && (!jti || client.jti === jti)) {
        send(client, { event: 'logout', data: { code: code ?? Code.InvalidAccessToken, ...(params ? { Params: params } : {}) }, seq });
        client.socket.close(WsCloseCode.InvalidToken, 'token revoked');
      }
    }
  });

  return {
    /** Adds an authenticated socket, sends hello and replays what it missed since `lastSeq`. */
    attach(socket: WebSocket, identity: { playerId: number; jti: string }, lastSeq?: number) {
      const client: Client = { socket, ...identity, sentSeq: seq };
      const oldest = log[0]?.seq ?? seq + 1;
      const canReplay = lastSeq !== undefined && lastSeq >= oldest - 1 && lastSeq <= seq;
      send(client, {
        event: 'hello',
        data: { protocol: PROTOCOL_VERSION, userId: identity.playerId, seq, snapshot: !canReplay },
        seq,
      });
      if (canReplay) {
        for (const entry of log) {
          if (entry.seq > lastSeq! && (entry.playerId === null || entry.playerId === identity.playerId)) send(client, entry);
        }
      }
      clients.add(client);
      socket.on('close', () => clients.delete(client));
      return client;
    },
    connectedPlayers: () => new Set([...clients].map((c) => c.playerId)),
    close() {
      for (const off of unsubscribeTopics) off();
      unsubscribeRevoked();
      lobby.flush();
      batch.flush();
      for (const client of clients) client.socket.close(1001, 'server shutting down');
      clients.clear();
    },
  };
}
export type NotificationHub = ReturnType<typeof createNotificationHub>;
