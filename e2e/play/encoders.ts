/**
 * The ffmpeg encoders of the product under test, found by the DATA_DIR in their environment so
 * other products on the machine are never touched, with the binary each one runs.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { DATA_DIR } from '../web/helpers';

export function ourEncoders(): { pid: number; exe: string }[] {
  const found: { pid: number; exe: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'ffmpeg') continue;
      const env = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      if (env.includes(`DATA_DIR=${DATA_DIR}`)) found.push({ pid: Number(entry), exe: readlinkSync(`/proc/${entry}/exe`) });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}
