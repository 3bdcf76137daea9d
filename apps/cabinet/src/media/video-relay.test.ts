import dgram from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { VideoRelay } from './video-relay.js';

const sockets: dgram.Socket[] = [];
const relays: VideoRelay[] = [];
afterEach(() => {
  for (const r of relays.splice(0)) r.close();
  for (const s of sockets.splice(0)) s.close();
});

async function socketAt(port = 0): Promise<{ socket: dgram.Socket; port: number; got: Buffer[] }> {
  const socket = dgram.createSocket('udp4');
  sockets.push(socket);
  const got: Buffer[] = [];
  socket.on('message', (m) => got.push(m));
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, '127.0.0.1', resolve);
  });
  return { socket, port: socket.address().port, got };
}

/** A target whose port + 1 is free too (where the relay sends RTCP). */
async function targetPair() {
  for (;;) {
    const rtp = await socketAt();
    try {
      return { rtp, rtcp: await socketAt(rtp.port + 1) };
    } catch {
      // port + 1 taken: try another pair
    }
  }
}

function vp8Packet(pictureId: number): Buffer {
  const p = Buffer.alloc(12 + 3 + 4);
  p[0] = 0x80;
  p[1] = 96;
  p.writeUInt32BE(0xabc, 8);
  p.set([0x90, 0x80, pictureId, 0x9d, 0x01, 0x2a, 0x00], 12);
  return p;
}

const until = async (ok: () => boolean) => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('the video relay', () => {
  it('passes RTP on with widened picture IDs and RTCP on to the port after the target', async () => {
    const { rtp, rtcp } = await targetPair();
    const relay = await VideoRelay.open({ host: '127.0.0.1', port: rtp.port });
    relays.push(relay);
    const sender = await socketAt();
    for (const id of [126, 127, 0]) sender.socket.send(vp8Packet(id), relay.via.port, relay.via.host);
    sender.socket.send(Buffer.from([0x80, 200, 0, 6, 0, 0, 0x0a, 0xbc]), relay.via.port, relay.via.host);
    await until(() => rtp.got.length === 3 && rtcp.got.length === 1);
    expect(rtp.got.map((p) => p.readUInt16BE(14) & 0x7fff)).toEqual([126, 127, 128]);
    expect(rtcp.got[0]![1]).toBe(200);
    expect(relay.packets).toBe(3);
  });

  it('follows a new target and counts on', async () => {
    const first = await targetPair();
    const second = await targetPair();
    const relay = await VideoRelay.open({ host: '127.0.0.1', port: first.rtp.port });
    relays.push(relay);
    const sender = await socketAt();
    sender.socket.send(vp8Packet(127), relay.via.port, relay.via.host);
    await until(() => first.rtp.got.length === 1);
    relay.retarget({ host: '127.0.0.1', port: second.rtp.port });
    sender.socket.send(vp8Packet(0), relay.via.port, relay.via.host);
    await until(() => second.rtp.got.length === 1);
    expect(second.rtp.got[0]!.readUInt16BE(14) & 0x7fff).toBe(128);
  });
});
