/**
 * The runtime settings (Settings.json): the spec's defaults, overridden key by key by the operator's
 * file. Read once and kept until the file changes, because machine state changes and lobby reads ask
 * for them many times a second; an operator's edit still takes effect without a restart.
 */
import fs from 'node:fs';
import { mergeSettings } from '@reel/protocol';

export type RuntimeSettings = ReturnType<typeof mergeSettings>;

const cache = new Map<string, { mtimeMs: number; size: number; settings: RuntimeSettings }>();

export function readSettings(file: string): RuntimeSettings {
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(file);
  } catch {
    stat = undefined;
  }
  const cached = cache.get(file);
  if (cached && stat && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.settings;
  if (cached && !stat && cached.mtimeMs === -1) return cached.settings;
  const settings = mergeSettings(stat ? parse(file) : {});
  cache.set(file, { mtimeMs: stat?.mtimeMs ?? -1, size: stat?.size ?? -1, settings });
  return settings;
}

function parse(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    // A half-written or broken file falls back to the spec's defaults rather than stopping play.
    return {};
  }
}
