/**
 * A machine's stream after its encoder stood still for 2 s (SIGSTOP, as a starved CPU would): once
 * ffmpeg runs again the picture must flow at its frame rate at once. It did not: the sound missed
 * during the stop was dropped, ffmpeg's audio timeline stayed 2 s behind its wall-clock video, and
 * ffmpeg (which serves the output with the lowest timestamp first) held every frame back until the
 * sound caught up: ~10 frames a second in bursts, for as long as the encoder ran (audio-timeline.ts).
 * Run with every ffmpeg the product may pick; an absent one is skipped with a printed reason.
 */
import { createSocket, type Socket } from 'node:dgram';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamTarget } from '@reel/protocol';
import { SlotMachine } from '../game/machine.js';
import { bundledFfmpeg, SYSTEM_FFMPEG } from './ffmpeg-path.js';
import { MachineStream } from './machine-stream.js';

const sockets: Socket[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  for (const s of sockets.splice(0)) s.close();
});

/** A UDP target that counts complete video frames (RTP marker bit) with their arrival times. */
async function listen(): Promise<{ port: number; frames: number[] }> {
  const socket = createSocket('udp4');
  sockets.push(socket);
  const frames: number[] = [];
  socket.on('message', (m) => {
    if (m.length > 12 && m[1]! & 0x80) frames.push(Date.now());
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { port: (socket.address() as AddressInfo).port, frames };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rate = (frames: number[], fromMs: number, toMs: number) => frames.filter((t) => t >= fromMs && t < toMs).length / ((toMs - fromMs) / 1000);

describe('after the encoder stood still, the picture flows at its frame rate again', () => {
  for (const bin of [
    { name: 'system', path: SYSTEM_FFMPEG },
    { name: 'bundled', path: bundledFfmpeg() },
  ]) {
    it(`${bin.name} ffmpeg`, { timeout: 40_000 }, async (ctx) => {
      if (!bin.path || !existsSync(bin.path)) {
        console.log(`${bin.name} ffmpeg: SKIPPED, binary absent (${bin.path ?? 'no binary from @ffmpeg-installer/linux-x64'})`);
        ctx.skip();
        return;
      }
      const video = await listen();
      const audio = await listen();
      const machine = new SlotMachine({ machineId: 3 });
      const stream = new MachineStream(machine, { ffmpegPath: bin.path });
      cleanups.push(async () => {
        await stream.stop();
        machine.dispose();
      });
      const target: StreamTarget = {
        host: '127.0.0.1',
        videoPort: video.port,
        audioPort: audio.port,
        videoSsrc: 11,
        audioSsrc: 12,
        videoPayloadType: 96,
        audioPayloadType: 111,
        bandId: 'low',
      };
      await stream.start(target);
      for (let waited = 0; video.frames.length < 30 && waited < 15_000; waited += 100) await sleep(100);
      await sleep(1500);
      const beforeAt = Date.now();
      await sleep(2000);
      const before = rate(video.frames, beforeAt, Date.now());

      const pid = stream.encoderPid!;
      process.kill(pid, 'SIGSTOP');
      try {
        await sleep(2000);
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      await sleep(1000);
      const afterAt = Date.now();
      await sleep(3000);
      const after = rate(video.frames, afterAt, Date.now());
      console.log(`${bin.name} ffmpeg: ${before.toFixed(1)} frames/s before a 2 s stop, ${after.toFixed(1)} frames/s from 1 s after it`);
      expect(stream.encoderPid, 'the same encoder ran on').toBe(pid);
      expect(after).toBeGreaterThan(Math.max(20, before * 0.75));
    });
  }
});
