/**
 * The cluster bench's notification sockets, as cheap for the load generator as a WebSocket client
 * can be. With `ws` clients the bench process decoded every frame of every socket (UTF-8 checks,
 * message events) on the same two cores as the servers, and at 200,000 frames a second it, not the
 * servers, set the latency. These clients do the handshake, walk the frame headers (to answer the
 * server's heartbeat pings, which would otherwise cut them after 50 s) and look into the payload of
 * a text frame only on probe sockets, for the `sentAt` stamp.
 */
import crypto from 'node:crypto';
import net from 'node:net';

const OP_TEXT = 0x1;
const OP_CLOSE = 0x8;
const OP_PING = 0x9;
const SENT_AT = Buffer.from('"sentAt":');
const ID = Buffer.from('"id":');

/** A client frame must be masked; a zero mask leaves the payload as it is. */
function maskedFrame(opcode: number, payload: Buffer) {
  return Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | payload.length, 0, 0, 0, 0]), payload]);
}

/**
 * Opens `ws://host:port{path}` and resolves once the server has accepted the upgrade.
 * `onSentAt`: called with the `sentAt` of every text frame that carries one, and the frame's first
 * `id` (the machine's), on probe sockets only.
 */
export function drainSocket(host: string, port: number, path: string, onSentAt?: (sentAt: number, id: number) => void) {
  return new Promise<net.Socket>((resolve, reject) => {
    const socket = net.connect({ host, port });
    socket.setNoDelay(true);
    let pending: Buffer | undefined;
    let upgraded = false;

    const readFrames = (data: Buffer) => {
      let buf = pending ? Buffer.concat([pending, data]) : data;
      for (;;) {
        if (buf.length < 2) break;
        const opcode = buf[0]! & 0x0f;
        let length = buf[1]! & 0x7f;
        let offset = 2;
        if (length === 126) {
          if (buf.length < 4) break;
          length = buf.readUInt16BE(2);
          offset = 4;
        } else if (length === 127) {
          if (buf.length < 10) break;
          length = Number(buf.readBigUInt64BE(2));
          offset = 10;
        }
        if (buf.length < offset + length) break;
        const payload = buf.subarray(offset, offset + length);
        buf = buf.subarray(offset + length);
        if (opcode === OP_TEXT && onSentAt) {
          const at = payload.indexOf(SENT_AT);
          if (at >= 0) {
            const idAt = payload.indexOf(ID);
            const id = idAt >= 0 ? parseInt(payload.toString('latin1', idAt + ID.length, idAt + ID.length + 12), 10) : NaN;
            onSentAt(Number(payload.toString('latin1', at + SENT_AT.length, payload.indexOf(0x7d, at))), id);
          }
        } else if (opcode === OP_PING) socket.write(maskedFrame(0xa, payload));
        else if (opcode === OP_CLOSE) socket.end();
      }
      pending = buf.length ? Buffer.from(buf) : undefined;
    };

    socket.once('connect', () => {
      const key = crypto.randomBytes(16).toString('base64');
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    socket.on('data', (data: Buffer) => {
      if (upgraded) return readFrames(data);
      pending = pending ? Buffer.concat([pending, data]) : data;
      const end = pending.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = pending.toString('latin1', 0, end);
      if (!head.startsWith('HTTP/1.1 101')) {
        socket.destroy();
        return reject(new Error(`upgrade refused: ${head.split('\r\n')[0]}`));
      }
      upgraded = true;
      const rest = pending.subarray(end + 4);
      pending = undefined;
      resolve(socket);
      if (rest.length) readFrames(rest);
    });
    // After the upgrade an error (the servers going away at the end) only ends this socket.
    socket.on('error', (error) => (upgraded ? socket.destroy() : reject(error)));
  });
}
