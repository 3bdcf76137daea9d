/**
 * What an ffmpeg binary accepts, asked once per binary path and cached: the product may run Debian's
 * ffmpeg (5.x and later), an `FFMPEG` of the operator's choice, or the 2018 static build shipped in
 * `@ffmpeg-installer/linux-x64` (4.x era), and the encoder's arguments must suit each.
 *
 * The probe reads `ffmpeg -h full` (the option list; the version is in the banner on stderr) and
 * `ffmpeg -hide_banner -encoders`. Options are detected, not inferred from the version number: the
 * static builds report git snapshot versions such as `N-47683-g0e8eb07980`.
 */
import { spawn } from 'node:child_process';

export interface FfmpegCapabilities {
  /** `-fps_mode` exists (ffmpeg 5.1+); older builds only have the global `-vsync`. */
  fpsMode: boolean;
}

/** Debian 12's ffmpeg 5.1 and later: the arguments the latency measurements were made with. */
export const MODERN_FFMPEG: FfmpegCapabilities = { fpsMode: true };
/** ffmpeg 4.x and the 2018 static build in `@ffmpeg-installer/linux-x64`. */
export const LEGACY_FFMPEG: FfmpegCapabilities = { fpsMode: false };

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

/** `ffmpeg -h full` output (stdout) → capabilities. An option is listed as `-name  help` at column 0. */
export function parseFfmpegHelp(help: string): FfmpegCapabilities {
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
    return {
      path,
      version: parseFfmpegVersion(help.stderr),
      capabilities: parseFfmpegHelp(help.stdout),
      missingEncoders: encoders.code === 0 ? missingEncoders(encoders.stdout) : [],
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
  const missing = p.missingEncoders.length ? `; MISSING encoders ${p.missingEncoders.join(', ')}` : '';
  return `ffmpeg ${p.path}: version ${p.version ?? 'unknown'} (${sync})${missing}`;
}
