import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const SYSTEM_FFMPEG = '/usr/bin/ffmpeg';

/**
 * Which ffmpeg to run: an explicit `FFMPEG` path wins, then the system binary, then the static
 * build shipped in `@ffmpeg-installer/linux-x64`. Returns null when none exists.
 */
export function resolveFfmpeg(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.FFMPEG && existsSync(env.FFMPEG)) return env.FFMPEG;
  if (existsSync(SYSTEM_FFMPEG)) return SYSTEM_FFMPEG;
  try {
    const require = createRequire(import.meta.url);
    const bin = require.resolve('@ffmpeg-installer/linux-x64/ffmpeg');
    if (existsSync(bin)) return bin;
  } catch {
    // optional dependency not installed
  }
  return null;
}
