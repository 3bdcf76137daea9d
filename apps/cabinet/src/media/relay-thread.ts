/**
 * The body of the video relays' worker thread (video-relay.ts): one UDP socket per relay, each
 * RTP packet on to its target with the picture ID widened, RTCP on to the target port + 1. Here,
 * not on the cabinet's main thread, whose event loop renders and pumps every streaming machine's
 * frames: a packet waiting there for a render or a garbage collection to end reached the browser
 * that much later, and a frame late by more than ~150 ms is a freeze to Chrome.
 */
import dgram from 'node:dgram';
import { parentPort } from 'node:worker_threads';
import { PictureIdWidener, isRtcp } from './vp8-picture-id.js';
import type { RelayReply, RelayRequest, RelayTarget } from './relay-messages.js';

interface Relay {
  socket: dgram.Socket;
  target: RelayTarget;
  widener: PictureIdWidener;
  packets: number;
}

const port = parentPort!;
const relays = new Map<number, Relay>();
const reply = (message: RelayReply) => port.postMessage(message);

function open(id: number, target: RelayTarget): void {
  const socket = dgram.createSocket('udp4');
  const relay: Relay = { socket, target, widener: new PictureIdWidener(), packets: 0 };
  socket.on('message', (packet) => {
    if (isRtcp(packet)) {
      socket.send(packet, relay.target.port + 1, relay.target.host);
      return;
    }
    relay.packets++;
    socket.send(relay.widener.widen(packet), relay.target.port, relay.target.host);
  });
  socket.once('error', (error) => reply({ op: 'failed', id, message: error.message }));
  socket.bind(0, '127.0.0.1', () => {
    // A send to a target that went away (the media process restarts) must not end the relay.
    socket.removeAllListeners('error');
    socket.on('error', () => {});
    relays.set(id, relay);
    reply({ op: 'opened', id, port: socket.address().port });
  });
}

port.on('message', (request: RelayRequest) => {
  switch (request.op) {
    case 'open':
      return open(request.id, request.target);
    case 'retarget': {
      const relay = relays.get(request.id);
      if (relay) relay.target = request.target;
      return;
    }
    case 'count':
      return reply({ op: 'count', id: request.id, packets: relays.get(request.id)?.packets ?? 0 });
    case 'close': {
      relays.get(request.id)?.socket.close();
      relays.delete(request.id);
      return;
    }
  }
});
