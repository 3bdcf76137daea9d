import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

export const SYSTEM_FFMPEG = '/usr/bin/ffmpeg';

/** The static build shipped in `@ffmpeg-installer/linux-x64` (a 2018 snapshot), or null. */
export function bundledFfmpeg(): string | null {
  try {
    const require = createRequire(import.meta.url);
    const bin = require.resolve('@ffmpeg-installer/linux-x64/ffmpeg');
    return existsSync(bin) ? bin : null;
  } catch {
    // optional dependency not installed
    return null;
  }
}

/**
 * Which ffmpeg to run: an explicit `FFMPEG` path wins, then the system binary, then the static
 * build shipped in `@ffmpeg-installer/linux-x64`. Returns null when none exists. Whichever it is,
 * the encoder asks it what it supports (ffmpeg-probe.ts) before building its arguments.
 */
export function resolveFfmpeg(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.FFMPEG && existsSync(env.FFMPEG)) return env.FFMPEG;
  if (existsSync(SYSTEM_FFMPEG)) return SYSTEM_FFMPEG;
  return bundledFfmpeg();
}
