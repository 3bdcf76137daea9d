/**
 * Which ffmpeg a video benchmark measured with. The encoder decides what the browser sees (the
 * bundled 2018 build froze the picture every 4.3 s before its picture IDs were widened, docs/video.md),
 * so every figure names it, and runs made with different encoders are not compared with each other.
 */
import { resolveFfmpeg } from '../../apps/cabinet/src/media/ffmpeg-path.js';
import { probeFfmpeg } from '../../apps/cabinet/src/media/ffmpeg-probe.js';

export interface FfmpegUsed {
  path: string;
  version: string;
}

export const describeFfmpeg = (f: FfmpegUsed | null): string => (f ? `${f.path} (version ${f.version})` : 'none');

/** The ffmpeg the cabinet will pick here (FFMPEG, else Debian's, else the bundled build), asked for its version. */
export async function benchFfmpeg(): Promise<FfmpegUsed | null> {
  const path = resolveFfmpeg();
  if (!path) return null;
  return { path, version: (await probeFfmpeg(path)).version ?? 'unknown' };
}

/** What a cabinet process said it runs (its probe line: `ffmpeg <path>: version <v> (…)`). */
export function ffmpegOfCabinet(log: readonly string[]): FfmpegUsed | null {
  for (const line of log) {
    const m = /ffmpeg (\S+): version (\S+) \(/.exec(line);
    if (m) return { path: m[1]!, version: m[2]! };
  }
  return null;
}

/** Why runs cannot be compared (they ran different encoders, or one is unknown), or null when they can. */
export function ffmpegMismatch(runs: readonly { name: string; ffmpeg: FfmpegUsed | null }[]): string | null {
  const named = runs.map((r) => `${r.name}: ${describeFfmpeg(r.ffmpeg)}`);
  if (runs.some((r) => r.ffmpeg === null)) return `the encoder of a run is unknown (${named.join('; ')})`;
  const distinct = new Set(runs.map((r) => `${r.ffmpeg!.path} ${r.ffmpeg!.version}`));
  return distinct.size > 1 ? `the runs used different ffmpeg builds (${named.join('; ')})` : null;
}
