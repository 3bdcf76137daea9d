/**
 * Coalesces the frames one notification socket receives within one event-loop turn into one write.
 * Each message stays its own WebSocket frame (the wire format the web client parses is unchanged);
 * only the syscalls are shared: a corked socket buffers its frames and writes them all with one
 * writev when it is uncorked at the end of the turn. A status change to thousands of lobby sockets
 * otherwise costs one write syscall per socket per message, which was most of the fan-out's cost.
 */
import type { Writable } from 'node:stream';
import * as wsModule from 'ws';
import type { WebSocket } from 'ws';

/**
 * The TCP socket under a `ws` WebSocket. `ws` keeps it in a field its types do not declare; reading
 * it here, checked, keeps that knowledge in one place and lets the hub fall back to plain sends
 * (e.g. a socket not yet or no longer attached to a stream).
 */
export function streamOf(socket: WebSocket): Writable | undefined {
  const stream = (socket as unknown as { _socket?: Partial<Writable> })._socket;
  return stream && typeof stream.cork === 'function' && typeof stream.uncork === 'function' ? (stream as Writable) : undefined;
}

/**
 * `schedule`: when a turn ends. `setImmediate` (the default) lets every I/O callback of the poll
 * phase add to the batch, e.g. several NATS reads in a burst; a microtask would flush after each one.
 */
export function createTurnBatcher(schedule: (flush: () => void) => void = setImmediate) {
  const corked = new Set<Writable>();
  let pending = false;

  const flush = () => {
    pending = false;
    // Uncork once per cork: ws's own cork/uncork pairs around a frame's header and payload nest
    // inside ours, so nothing is written before this.
    for (const stream of corked) stream.uncork();
    corked.clear();
  };

  return {
    /** Holds the socket's writes until the end of this turn; the first hold in a turn corks it. */
    hold(socket: WebSocket) {
      const stream = streamOf(socket);
      if (!stream || corked.has(stream)) return;
      stream.cork();
      corked.add(stream);
      if (!pending) {
        pending = true;
        schedule(flush);
      }
    },
    /** Writes out everything held now (on shutdown, before the sockets are closed). */
    flush,
  };
}

/**
 * The stream to write pre-built frames to, or undefined when `ws` must send them itself. Only with
 * no extension negotiated: `ws` writes a frame synchronously then, so a direct write cannot overtake
 * one of its own (with permessage-deflate it compresses asynchronously). The hub's sockets never
 * send Blobs, the other case where `ws` queues a frame.
 */
export function directStream(socket: WebSocket) {
  return socket.extensions === '' ? streamOf(socket) : undefined;
}

/** ws' own framing (exported at runtime as `Sender.frame`, not declared by @types/ws). */
const { Sender } = wsModule as unknown as {
  Sender: { frame(data: Buffer, options: { fin: boolean; rsv1: boolean; opcode: number; mask: boolean; readOnly: boolean }): Buffer[] };
};

/** A complete unmasked, unfragmented WebSocket text frame (what a server sends) around `payload`, framed by ws. */
export function textFrame(payload: Buffer) {
  return Buffer.concat(Sender.frame(payload, { fin: true, rsv1: false, opcode: 1, mask: false, readOnly: true }));
}
