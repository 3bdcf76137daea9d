/**
 * What an ffmpeg binary accepts, asked once per binary path and cached: the product may run Debian's
 * ffmpeg (5.x and later), an `FFMPEG` of the operator's choice, or the 2018 static build shipped in
 * `@ffmpeg-installer/linux-x64` (4.x era), and the encoder's arguments must suit each.
 *
 * The probe reads `ffmpeg -h full` (the option list; the version is in the banner on stderr) and
 * `ffmpeg -hide_banner -encoders`, and encodes one tiny VP8 frame to a loopback UDP socket to see
 * how the binary writes the RTP payload descriptor. What a binary does is detected, not inferred
 * from the version number: the static builds report git snapshot versions such as `N-47683-g0e8eb07980`.
 */
import { spawn } from 'node:child_process';
import dgram from 'node:dgram';
import { shortPictureId } from './vp8-picture-id.js';

export interface FfmpegCapabilities {
  /** `-fps_mode` exists (ffmpeg 5.1+); older builds only have the global `-vsync`. */
  fpsMode: boolean;
  /**
   * Its VP8 RTP carries 7-bit picture IDs, which wrap every 128 frames and freeze Chrome's picture
   * at each wrap (vp8-picture-id.ts): the stream then goes through a relay that widens them.
   */
  shortPictureIds: boolean;
}

/** Debian 12's ffmpeg 5.1 and later: the arguments the latency measurements were made with. */
export const MODERN_FFMPEG: FfmpegCapabilities = { fpsMode: true, shortPictureIds: false };
/** ffmpeg 4.x and the 2018 static build in `@ffmpeg-installer/linux-x64`. */
export const LEGACY_FFMPEG: FfmpegCapabilities = { fpsMode: false, shortPictureIds: true };

/** Encoders the cabinet stream needs. */
const REQUIRED_ENCODERS = ['libvpx', 'libopus'] as const;

export interface FfmpegProbe {
  path: string;
  /** From the banner, e.g. `5.1.9-0+deb12u1` or `N-47683-g0e8eb07980-static`; null if unreadable. */
  version: string | null;
  capabilities: FfmpegCapabilities;
  /** Required encoders the binary lacks (an encoder started with it fails at once). */
  missingEncoders: string[];
  /** Why the binary could not be asked; the capabilities are then the modern defaults. */
  error: string | null;
}

const PROBE_TIMEOUT_MS = 10_000;
const MAX_OUTPUT_BYTES = 8 * 1024 * 1024;

/** `ffmpeg -h full` output (stdout) → what the option list tells. An option is listed as `-name  help` at column 0. */
export function parseFfmpegHelp(help: string): Pick<FfmpegCapabilities, 'fpsMode'> {
  return { fpsMode: /^-fps_mode\s/m.test(help) };
}

/** The first banner line `ffmpeg version X Copyright …` → `X`. */
export function parseFfmpegVersion(banner: string): string | null {
  return /^ffmpeg version (\S+)/m.exec(banner)?.[1] ?? null;
}

/** `ffmpeg -encoders` output → the names of the required encoders it does not list. */
export function missingEncoders(encoders: string): string[] {
  const names = new Set(
    encoders
      .split('\n')
      .map((line) => /^\s*[VAS][.A-Z]{5}\s+(\S+)/.exec(line)?.[1])
      .filter((name): name is string => Boolean(name)),
  );
  return REQUIRED_ENCODERS.filter((name) => !names.has(name));
}

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(path: string, args: string[], timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(path, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < MAX_OUTPUT_BYTES) stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < MAX_OUTPUT_BYTES) stderr += chunk;
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The first non-empty line of some output, for a one-line reason. */
function firstLine(text: string): string | null {
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      .find(Boolean) ?? null
  );
}

/**
 * Encodes one 16×16 VP8 frame to a loopback UDP socket and reads the picture ID of the first
 * packet: true when it is the 7-bit form. False when nothing arrives (the binary cannot encode:
 * starting the stream reports that).
 */
async function sendsShortPictureIds(path: string, timeoutMs: number): Promise<boolean> {
  const socket = dgram.createSocket('udp4');
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, '127.0.0.1', resolve);
    });
    const first = new Promise<Buffer | null>((resolve) => socket.once('message', resolve));
    const args = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-s', '16x16'];
    const encoded = run(
      path,
      [...args, '-i', '/dev/zero', '-frames:v', '1', '-c:v', 'libvpx', '-f', 'rtp', `rtp://127.0.0.1:${socket.address().port}`],
      timeoutMs,
    );
    // The packet, or nothing a moment after ffmpeg ended (its datagram may be read after the exit is seen).
    const ended = encoded.then(
      () => new Promise<null>((resolve) => setTimeout(() => resolve(null), 250)),
      () => null,
    );
    const packet = await Promise.race([first, ended]);
    return packet !== null && shortPictureId(packet) !== null;
  } catch {
    return false;
  } finally {
    socket.close();
  }
}

async function probe(path: string, timeoutMs: number): Promise<FfmpegProbe> {
  const fallback = (error: string): FfmpegProbe => ({
    path,
    version: null,
    capabilities: MODERN_FFMPEG,
    missingEncoders: [],
    error,
  });
  try {
    const [help, encoders] = await Promise.all([
      run(path, ['-h', 'full'], timeoutMs),
      run(path, ['-hide_banner', '-encoders'], timeoutMs),
    ]);
    // A real ffmpeg lists its options on stdout and exits 0; anything else is not one we can ask.
    if (help.code !== 0 || !/^-\w/m.test(help.stdout)) {
      const said = firstLine(help.stderr) ?? firstLine(help.stdout);
      return fallback(`\`${path} -h full\` exited with code ${help.code}${said ? `: ${said}` : ''}`);
    }
    const missing = encoders.code === 0 ? missingEncoders(encoders.stdout) : [];
    return {
      path,
      version: parseFfmpegVersion(help.stderr),
      capabilities: {
        ...parseFfmpegHelp(help.stdout),
        shortPictureIds: !missing.includes('libvpx') && (await sendsShortPictureIds(path, timeoutMs)),
      },
      missingEncoders: missing,
      error: null,
    };
  } catch (error) {
    return fallback(`could not run ${path}: ${(error as Error).message}`);
  }
}

const cache = new Map<string, Promise<FfmpegProbe>>();

/** Asks `path` what it supports; one probe per path for the life of the process. */
export function probeFfmpeg(path: string, opts: { timeoutMs?: number } = {}): Promise<FfmpegProbe> {
  let probed = cache.get(path);
  if (!probed) {
    probed = probe(path, opts.timeoutMs ?? PROBE_TIMEOUT_MS);
    cache.set(path, probed);
  }
  return probed;
}

/** Tests: forget every cached probe. */
export function clearFfmpegProbeCache(): void {
  cache.clear();
}

/** One log line: which binary, which version, which argument set. */
export function describeProbe(p: FfmpegProbe): string {
  if (p.error) return `ffmpeg ${p.path}: probe failed (${p.error}); assuming a modern ffmpeg`;
  const sync = p.capabilities.fpsMode ? '-fps_mode passthrough' : 'no -fps_mode, using -vsync passthrough';
  const ids = p.capabilities.shortPictureIds ? '; 7-bit VP8 picture IDs, widened to 15 bits by a relay' : '';
  const missing = p.missingEncoders.length ? `; MISSING encoders ${p.missingEncoders.join(', ')}` : '';
  return `ffmpeg ${p.path}: version ${p.version ?? 'unknown'} (${sync}${ids})${missing}`;
}
