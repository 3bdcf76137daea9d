import dgram from 'node:dgram';
import { Worker } from 'node:worker_threads';
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
    expect(await relay.packets()).toBe(3);
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

/**
 * A thread of the test's own sends a packet every 10 ms through the relay to itself and reports
 * how long each took, while the main thread is busy: the relay must not wait for it.
 */
const PROBE = `
const dgram = require('node:dgram');
const { parentPort, workerData } = require('node:worker_threads');
const socket = dgram.createSocket('udp4');
const delays = [];
socket.on('message', (m) => delays.push(performance.timeOrigin + performance.now() - m.readDoubleBE(12)));
socket.bind(0, '127.0.0.1', () => {
  parentPort.postMessage({ port: socket.address().port });
  parentPort.once('message', (relayPort) => {
    let sent = 0;
    const timer = setInterval(() => {
      const packet = Buffer.alloc(20);
      packet[0] = 0x80;
      packet[1] = 96;
      packet.writeDoubleBE(performance.timeOrigin + performance.now(), 12);
      socket.send(packet, relayPort, '127.0.0.1');
      if (++sent === workerData.packets) {
        clearInterval(timer);
        setTimeout(() => { parentPort.postMessage({ delays }); socket.close(); }, 200);
      }
    }, 10);
  });
});
`;

describe('the video relay beside a busy cabinet', () => {
  it('passes packets on while the main thread renders (it blocks here for 400 ms)', async () => {
    const probe = new Worker(PROBE, { eval: true, workerData: { packets: 60 } });
    const { port } = await new Promise<{ port: number }>((resolve) => probe.once('message', resolve));
    const relay = await VideoRelay.open({ host: '127.0.0.1', port });
    relays.push(relay);
    const report = new Promise<{ delays: number[] }>((resolve) => probe.on('message', resolve));
    probe.postMessage(relay.via.port);
    // Let the probe get going, then hold the main thread as a long render or a garbage collection would.
    await new Promise((r) => setTimeout(r, 100));
    const blockedUntil = performance.now() + 400;
    while (performance.now() < blockedUntil);
    const { delays } = await report;
    await probe.terminate();
    const slowest = Math.max(...delays);
    console.log(`relay hop with the main thread blocked for 400 ms: ${delays.length} packets, slowest ${slowest.toFixed(1)} ms`);
    expect(delays).toHaveLength(60);
    // On the main thread's event loop the packets sent during the block waited up to 400 ms.
    expect(slowest).toBeLessThan(200);
  });
});
