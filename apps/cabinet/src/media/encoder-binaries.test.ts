/**
 * Every ffmpeg the product may pick (Debian's and the one bundled in @ffmpeg-installer/linux-x64),
 * run for real with the arguments built from its probe: it must take them and send VP8 and Opus
 * RTP to the target. A binary that is absent is skipped with a printed reason; nothing else skips.
 */
import { createSocket, type Socket } from 'node:dgram';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamTarget } from '@reel/protocol';
import { DEFAULT_BANDS } from './bands.js';
import { Encoder } from './encoder.js';
import { bundledFfmpeg, SYSTEM_FFMPEG } from './ffmpeg-path.js';
import { describeProbe, MODERN_FFMPEG, probeFfmpeg } from './ffmpeg-probe.js';
import { VideoRelay } from './video-relay.js';

const BINARIES = [
  { name: 'system', path: SYSTEM_FFMPEG, expectFpsMode: true, expectShortIds: false },
  { name: 'bundled', path: bundledFfmpeg(), expectFpsMode: false, expectShortIds: true },
];

interface Packet {
  payloadType: number;
  ssrc: number;
  timestamp: number;
  marker: boolean;
  payload: Buffer;
}

/** RFC 7741: the picture ID of a VP8 payload and whether it is the 15-bit form (null: none). */
function pictureId(payload: Buffer): { id: number; long: boolean } | null {
  if (!(payload[0]! & 0x80) || !(payload[1]! & 0x80)) return null;
  const long = (payload[2]! & 0x80) !== 0;
  return { id: long ? ((payload[2]! & 0x7f) << 8) | payload[3]! : payload[2]!, long };
}

function parseRtp(msg: Buffer): Packet | null {
  if (msg.length < 12 || msg[0]! >> 6 !== 2) return null;
  const csrcCount = msg[0]! & 0x0f;
  let offset = 12 + csrcCount * 4;
  if (msg[0]! & 0x10) offset += 4 + msg.readUInt16BE(offset + 2) * 4;
  return {
    payloadType: msg[1]! & 0x7f,
    ssrc: msg.readUInt32BE(8),
    timestamp: msg.readUInt32BE(4),
    marker: (msg[1]! & 0x80) !== 0,
    payload: msg.subarray(offset),
  };
}

/** RFC 7741: a VP8 payload that starts a partition-0 keyframe. */
function isVp8Keyframe(payload: Buffer): boolean {
  const d = payload[0]!;
  if (!(d & 0x10) || (d & 0x07) !== 0) return false; // S bit, partition 0
  let offset = 1;
  if (d & 0x80) {
    const x = payload[offset++]!;
    if (x & 0x80) offset += payload[offset]! & 0x80 ? 2 : 1; // PictureID
    if (x & 0x40) offset += 1; // TL0PICIDX
    if (x & 0x30) offset += 1; // TID/KEYIDX
  }
  return (payload[offset]! & 0x01) === 0;
}

const sockets: Socket[] = [];
const encoders: Encoder[] = [];
afterEach(async () => {
  for (const e of encoders.splice(0)) await e.stop();
  for (const s of sockets.splice(0)) s.close();
});

async function listen(): Promise<{ port: number; packets: Packet[] }> {
  const socket = createSocket('udp4');
  sockets.push(socket);
  const packets: Packet[] = [];
  socket.on('message', (msg) => {
    const p = parseRtp(msg);
    if (p) packets.push(p);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { port: (socket.address() as AddressInfo).port, packets };
}

describe('each ffmpeg the product may pick encodes VP8 + Opus RTP with the arguments built for it', () => {
  for (const bin of BINARIES) {
    it(`${bin.name} ffmpeg`, async (ctx) => {
      if (!bin.path || !existsSync(bin.path)) {
        console.log(
          `${bin.name} ffmpeg: SKIPPED, binary absent (${bin.path ?? 'no binary from @ffmpeg-installer/linux-x64'})`,
        );
        ctx.skip();
        return;
      }
      const probe = await probeFfmpeg(bin.path);
      console.log(describeProbe(probe));
      expect(probe.error).toBeNull();
      expect(probe.missingEncoders).toEqual([]);
      expect(probe.capabilities.fpsMode).toBe(bin.expectFpsMode);
      expect(probe.capabilities.shortPictureIds).toBe(bin.expectShortIds);

      const video = await listen();
      const audio = await listen();
      const target: StreamTarget = {
        host: '127.0.0.1',
        videoPort: video.port,
        audioPort: audio.port,
        videoSsrc: 0x1234abcd,
        audioSsrc: 0x5678ef01,
        videoPayloadType: 96,
        audioPayloadType: 111,
        bandId: 'low',
      };
      const band = DEFAULT_BANDS.find((b) => b.id === 'low')!;
      const stderr: string[] = [];
      let exited: string | null = null;
      const encoder = new Encoder({
        ffmpegPath: bin.path,
        target,
        band,
        capabilities: probe.capabilities,
        onLog: (line) => stderr.push(line),
        onExit: (code, signal) => (exited = `${code ?? signal}`),
      });
      encoders.push(encoder);
      encoder.start();
      // One second of 30 fps frames (changing colour) and 20 ms audio chunks, paced like the pump.
      const frame = Buffer.alloc(encoder.frameBytes);
      const pcm = Buffer.alloc(48_000 * 2 * 0.02);
      for (let i = 0; i < pcm.length / 2; i++) pcm.writeInt16LE(Math.round(8000 * Math.sin(i / 10)), i * 2);
      const t0 = Date.now();
      const enough = () =>
        video.packets.filter((p) => p.payloadType === 96).length > 10 && audio.packets.filter((p) => p.payloadType === 111).length > 20;
      // At least 1.2 s; longer (up to 15 s) only while a loaded machine delays ffmpeg's start.
      for (let i = 0; (Date.now() - t0 < 1200 || !enough()) && Date.now() - t0 < 15_000 && !exited; i++) {
        frame.fill(i * 7);
        encoder.writeVideo(frame);
        encoder.writeAudio(pcm);
        encoder.writeAudio(pcm);
        await new Promise((r) => setTimeout(r, 33));
      }
      await new Promise((r) => setTimeout(r, 300));
      const videoPackets = video.packets.filter((p) => p.payloadType === 96 && p.ssrc === target.videoSsrc);
      const audioPackets = audio.packets.filter((p) => p.payloadType === 111 && p.ssrc === target.audioSsrc);
      console.log(
        `${bin.name} ffmpeg: ${videoPackets.length} VP8 packets (${videoPackets.filter((p) => isVp8Keyframe(p.payload)).length} keyframe starts), ${audioPackets.length} Opus packets; stderr: ${stderr.length ? stderr.join(' | ') : 'none'}`,
      );
      expect(exited, `ffmpeg exited early: ${stderr.join(' | ')}`).toBeNull();
      expect(encoder.running).toBe(true);
      expect(videoPackets.length).toBeGreaterThan(10);
      expect(videoPackets.some((p) => isVp8Keyframe(p.payload))).toBe(true);
      expect(audioPackets.length).toBeGreaterThan(20);
    });
  }

  it('the bundled ffmpeg refuses the modern arguments (why the probe exists)', async (ctx) => {
    const bundled = bundledFfmpeg();
    if (!bundled) {
      console.log('bundled ffmpeg: SKIPPED, binary absent (no binary from @ffmpeg-installer/linux-x64)');
      ctx.skip();
      return;
    }
    const video = await listen();
    const stderr: string[] = [];
    const exited = await new Promise<number | null>((resolve) => {
      const encoder = new Encoder({
        ffmpegPath: bundled,
        target: {
          host: '127.0.0.1',
          videoPort: video.port,
          audioPort: video.port,
          videoSsrc: 1,
          audioSsrc: 2,
          videoPayloadType: 96,
          audioPayloadType: 111,
          bandId: 'low',
        },
        band: DEFAULT_BANDS[1]!,
        capabilities: MODERN_FFMPEG,
        onLog: (line) => stderr.push(line),
        onExit: (code) => resolve(code),
      });
      encoders.push(encoder);
      encoder.start();
    });
    expect(exited).not.toBe(0);
    expect(stderr[0]).toBe("Unrecognized option 'fps_mode'.");
  });

  it("the bundled ffmpeg's 7-bit picture IDs reach the target widened, counting on past 127", { timeout: 60_000 }, async (ctx) => {
    const bundled = bundledFfmpeg();
    if (!bundled) {
      console.log('bundled ffmpeg: SKIPPED, binary absent (no binary from @ffmpeg-installer/linux-x64)');
      ctx.skip();
      return;
    }
    const probe = await probeFfmpeg(bundled);
    const video = await listen();
    const audio = await listen();
    const relay = await VideoRelay.open({ host: '127.0.0.1', port: video.port });
    const target: StreamTarget = {
      host: '127.0.0.1',
      videoPort: video.port,
      audioPort: audio.port,
      videoSsrc: 7,
      audioSsrc: 8,
      videoPayloadType: 96,
      audioPayloadType: 111,
      bandId: 'low',
    };
    const encoder = new Encoder({ ffmpegPath: bundled, target, band: DEFAULT_BANDS[1]!, capabilities: probe.capabilities, videoVia: relay.via });
    encoders.push(encoder);
    encoder.start();
    // 160 frames (and their sound) at 60 a second: past the 7-bit wrap at 128 in under 3 s.
    const frame = Buffer.alloc(encoder.frameBytes);
    const pcm = Buffer.alloc(48_000 * 2 * 0.02);
    const ids = () => new Set(video.packets.filter((p) => p.payloadType === 96).map((p) => pictureId(p.payload)?.id ?? -1));
    for (let i = 0; i < 160; i++) {
      frame.fill(i * 3);
      encoder.writeVideo(frame);
      encoder.writeAudio(pcm);
      await new Promise((r) => setTimeout(r, 16));
    }
    for (let waited = 0; ids().size < 150 && waited < 5000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    relay.close();
    const seen = video.packets.filter((p) => p.payloadType === 96).map((p) => pictureId(p.payload));
    console.log(`bundled ffmpeg through the relay: ${seen.length} VP8 packets, picture IDs ${Math.min(...ids())}–${Math.max(...ids())}`);
    expect(seen.every((id) => id?.long)).toBe(true);
    expect(Math.max(...ids())).toBeGreaterThan(140);
    // Never a step back: IDs only grow, frame after frame.
    const order = seen.map((id) => id!.id);
    expect(order.every((id, i) => i === 0 || id >= order[i - 1]!)).toBe(true);
  });

  for (const bin of BINARIES) {
    it(`${bin.name} ffmpeg: frames read 5 ms apart keep their own times (no two on one RTP timestamp)`, { timeout: 60_000 }, async (ctx) => {
      if (!bin.path || !existsSync(bin.path)) {
        console.log(`${bin.name} ffmpeg: SKIPPED, binary absent (${bin.path ?? 'no binary from @ffmpeg-installer/linux-x64'})`);
        ctx.skip();
        return;
      }
      const probe = await probeFfmpeg(bin.path);
      const video = await listen();
      const audio = await listen();
      const relay = probe.capabilities.shortPictureIds ? await VideoRelay.open({ host: '127.0.0.1', port: video.port }) : null;
      const target: StreamTarget = { host: '127.0.0.1', videoPort: video.port, audioPort: audio.port, videoSsrc: 21, audioSsrc: 22, videoPayloadType: 96, audioPayloadType: 111, bandId: 'low' };
      const encoder = new Encoder({ ffmpegPath: bin.path, target, band: DEFAULT_BANDS[1]!, capabilities: probe.capabilities, ...(relay ? { videoVia: relay.via } : {}) });
      encoders.push(encoder);
      encoder.start();
      const frame = Buffer.alloc(encoder.frameBytes);
      const pcm = Buffer.alloc(48_000 * 2 * 0.02);
      // Sound as the wall clock goes (ffmpeg holds video back while its audio lags, audio-timeline.ts).
      const t0 = Date.now();
      let chunks = 0;
      const write = (fill: number) => {
        for (; chunks < (Date.now() - t0) / 20 + 1; chunks++) encoder.writeAudio(pcm);
        frame.fill(fill);
        encoder.writeVideo(frame);
      };
      // Until ffmpeg is up and sending, frames at the usual pace.
      const sent = () => video.packets.filter((p) => p.payloadType === 96 && p.marker).length;
      for (let i = 0; sent() < 5 && i < 500; i++) {
        write(i);
        await new Promise((r) => setTimeout(r, 33));
      }
      await new Promise((r) => setTimeout(r, 300));
      const from = video.packets.length;
      // Pairs of frames 5 ms apart: on a 1/30 s time base most pairs would share a tick.
      for (let pair = 0; pair < 12; pair++) {
        for (const gapMs of [5, 95]) {
          write(pair * 20 + gapMs);
          await new Promise((r) => setTimeout(r, gapMs));
        }
      }
      write(0);
      await new Promise((r) => setTimeout(r, 1000));
      relay?.close();
      const ends = video.packets.slice(from).filter((p) => p.payloadType === 96 && p.marker).map((p) => p.timestamp);
      const steps = ends.slice(1).map((t, i) => ((t - ends[i]!) >>> 0) / 90);
      console.log(`${bin.name} ffmpeg: ${ends.length} frames, steps between RTP timestamps (ms) ${steps.map((ms) => ms.toFixed(0)).join(' ')}`);
      expect(ends.length).toBeGreaterThanOrEqual(20);
      expect(steps.filter((ms) => ms === 0)).toEqual([]);
      // Roughly the 5 and 95 ms they were written apart (ffmpeg reads each as it comes).
      expect(steps.filter((ms) => ms < 30).length).toBeGreaterThanOrEqual(8);
    });
  }
});
