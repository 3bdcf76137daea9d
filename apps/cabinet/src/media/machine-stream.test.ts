/**
 * An encoder that cannot run: one log line with its cause, retries with growing pauses, then the
 * stream gives up and the machine reports 'error' with the video fault (which the agent client
 * sends to the server), until video works again.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StreamTarget } from '@reel/protocol';
import { SlotMachine } from '../game/machine.js';
import type { MachineStateEvent } from '../game/machine-types.js';
import { clearFfmpegProbeCache } from './ffmpeg-probe.js';
import { MachineStream, restartDelayMs, DEFAULT_RESTART_POLICY } from './machine-stream.js';

const dir = mkdtempSync(path.join(tmpdir(), 'reel-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in ffmpeg: logs each encoder run (not the probe's calls) with a ms timestamp. */
function fakeFfmpeg(name: string, body: string): { path: string; runs: () => number[] } {
  const file = path.join(dir, name);
  const calls = `${file}.runs`;
  writeFileSync(
    file,
    `#!/bin/sh
case "$*" in
  *pipe:0*) date +%s%3N >> ${calls} ;;
  *) echo "Unrecognized option '$1'." >&2; exit 1 ;;
esac
${body}
`,
  );
  chmodSync(file, 0o755);
  return {
    path: file,
    runs: () => (existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n').map(Number) : []),
  };
}

const target: StreamTarget = {
  host: '127.0.0.1',
  videoPort: 9,
  audioPort: 9,
  videoSsrc: 1,
  audioSsrc: 2,
  videoPayloadType: 96,
  audioPayloadType: 111,
  bandId: 'low',
};
const POLICY = { initialDelayMs: 100, maxDelayMs: 300, fastFailureMs: 1500, maxFastFailures: 4 };

const until = async (pred: () => boolean, timeoutMs = 10_000) => {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

let streams: MachineStream[] = [];
let machines: SlotMachine[] = [];
beforeEach(() => clearFfmpegProbeCache());
afterEach(async () => {
  for (const s of streams) await s.stop();
  for (const m of machines) m.dispose();
  streams = [];
  machines = [];
});

function setup(ffmpegPath: string, policy = POLICY) {
  const machine = new SlotMachine({ machineId: 7 });
  const logs: string[] = [];
  const states: MachineStateEvent[] = [];
  machine.on('state', (s) => states.push(s));
  machine.announce();
  const stream = new MachineStream(machine, { ffmpegPath, log: (m) => logs.push(m), restartPolicy: policy });
  machines.push(machine);
  streams.push(stream);
  return { machine, stream, logs, states };
}

describe('frame rate', () => {
  it('follows the FPS setting: bands carry it and their bitrates scale; ids stay', async () => {
    const machine = new SlotMachine({ machineId: 3 });
    const stream = new MachineStream(machine, { ffmpegPath: '/nonexistent/ffmpeg' });
    expect(stream.frameRate).toBe(30);
    expect(stream.bands.map((b) => [b.id, b.fps, b.bitrateKbps])).toEqual([['high', 30, 1200], ['low', 30, 400]]);
    await stream.setFps(15);
    expect(stream.frameRate).toBe(15);
    expect(stream.bands.map((b) => [b.id, b.fps, b.bitrateKbps])).toEqual([['high', 15, 600], ['low', 15, 200]]);
    await stream.setFps(500);
    expect(stream.frameRate).toBe(60);
    machine.dispose();
  });
});

describe('restart backoff', () => {
  it('doubles from the initial pause up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => restartDelayMs(n))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
    expect(DEFAULT_RESTART_POLICY.maxFastFailures).toBe(5);
  });
});

describe('an encoder that keeps failing', () => {
  it('is logged once with its first error line, retried with backoff, then reported as a video fault', async () => {
    const fake = fakeFfmpeg(
      'refuses-args',
      `echo "Unrecognized option 'fps_mode'." >&2; echo "Error splitting the argument list: Option not found" >&2; exit 1`,
    );
    // Pauses far apart (200, 400, 800 ms), so that their growth shows through how long each failing
    // run itself takes, which varies by a few hundred ms on a loaded machine.
    const { machine, stream, logs, states } = setup(fake.path, { ...POLICY, initialDelayMs: 200, maxDelayMs: 800 });
    await stream.start(target);
    await until(() => stream.failure !== null);
    const runs = fake.runs();
    expect(runs).toHaveLength(POLICY.maxFastFailures);
    // Growing pauses between runs: 200, 400, 800 ms plus the run itself.
    const gaps = runs.slice(1).map((t, i) => t - runs[i]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(200);
    expect(gaps[1]).toBeGreaterThanOrEqual(400);
    expect(gaps[2]).toBeGreaterThanOrEqual(800);
    // The pauses grow: compared two steps apart (600 ms more pause), as one run's own time varies.
    expect(gaps[2]!).toBeGreaterThan(gaps[0]!);

    const mentions = logs.filter((l) => l.includes("Unrecognized option 'fps_mode'."));
    expect(logs.filter((l) => l.includes('Error splitting'))).toEqual([]);
    expect(mentions).toHaveLength(2);
    expect(mentions[0]).toMatch(
      /^encoder for machine 7 failed after \d+ ms: Unrecognized option 'fps_mode'\. \(exited with code 1\); retrying/,
    );
    expect(mentions[1]).toMatch(
      /^video of machine 7 unavailable: the encoder failed 4 times in a row.*not retrying, machine reported as error$/,
    );
    expect(logs).toHaveLength(2);

    expect(machine.state).toBe('error');
    expect(machine.videoError).toBe("Unrecognized option 'fps_mode'.");
    expect(states.at(-1)).toMatchObject({
      state: 'error',
      reason: "video: Unrecognized option 'fps_mode'.",
      videoError: "Unrecognized option 'fps_mode'.",
    });
    expect(stream.active).toBe(false);
    // Given up means given up: no encoder runs and no restart waits (only an explicit start launches one).
    expect(stream.retryScheduled).toBe(false);
    expect(fake.runs()).toHaveLength(POLICY.maxFastFailures);
    // Not playable, but the money can still go back.
    expect((await machine.execute({ commandId: 'c1', type: 'credit_in', amountCents: 100 })).reason).toBe(
      'faulted',
    );
    expect((await machine.execute({ commandId: 'c2', type: 'cash_out' })).outcome).toBe('ok');
  });

  it('a binary that exits silently (/bin/false) is reported with its exit code', async () => {
    const { machine, stream, logs } = setup('/bin/false');
    await stream.start(target);
    await until(() => stream.failure !== null);
    expect(machine.videoError).toBe('exited with code 1');
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatch(/failed after \d+ ms: exited with code 1; retrying/);
  });

  it('a binary that does not exist is reported without crashing the cabinet', async () => {
    const { machine, stream } = setup(path.join(dir, 'no-such-ffmpeg'));
    await stream.start(target);
    await until(() => stream.failure !== null);
    expect(machine.videoError).toMatch(/^could not start .*no-such-ffmpeg: spawn .* ENOENT$/);
  });

  it('a later stream_start that works clears the fault once the encoder stays up', async () => {
    const flag = path.join(dir, 'works');
    const fake = fakeFfmpeg(
      'flaky',
      `[ -f ${flag} ] && exec sleep 30; echo "Unknown encoder 'libvpx'" >&2; exit 1`,
    );
    const { machine, stream, logs, states } = setup(fake.path);
    await stream.start(target);
    await until(() => stream.failure !== null);
    expect(machine.state).toBe('error');
    writeFileSync(flag, '');
    await stream.start(target);
    expect(stream.failure).toBeNull();
    expect(machine.state).toBe('error'); // not before it has proven itself
    await until(() => machine.videoError === null, POLICY.fastFailureMs + 2000);
    expect(machine.state).toBe('idle');
    expect(states.at(-1)).toEqual({ state: 'idle', previous: 'error', reason: 'video restored' });
    expect(logs.at(-1)).toMatch(/^encoder for machine 7 running again/);
  });

  it('an operator clearing faults (set_fault none) clears the video fault too', async () => {
    const { machine, stream } = setup('/bin/false');
    await stream.start(target);
    await until(() => stream.failure !== null);
    await machine.execute({ commandId: 'f1', type: 'set_fault', fault: 'none' });
    expect(machine.state).toBe('idle');
    expect(machine.videoError).toBeNull();
  });
});
