/**
 * Cabinet agent configuration from the environment:
 *   AGENT_URL          agent WebSocket (default ws://127.0.0.1:8080/ws/agent)
 *   CABINET_MACHINES   "1=key1,2=key2" machine ids and keys, or
 *   CABINET_KEYS_FILE  JSON object {"1": "key1", ...} (default ./data/machine-keys.json, written by the server's seed)
 *   CABINET_IDS        optional subset of ids to run, e.g. "1,2,3,4"
 *   CABINET_CAMERAS    "5=/dev/video0" machines whose video comes from a v4l2 camera instead of the renderer
 *   CABINET_DATA_DIR   the machines' critical memory, one file per machine (default: `cabinets` beside
 *                      CABINET_KEYS_FILE, else DATA_DIR/cabinets, else ./data/cabinets)
 *   FFMPEG             ffmpeg binary (else /usr/bin/ffmpeg, else @ffmpeg-installer/linux-x64)
 *   CABINET_FFMPEG     "2=/opt/ffmpeg/bin/ffmpeg" machines that encode with another ffmpeg than the
 *                      one above (one product can then stream with several builds at once, as the
 *                      e2e suite does to check each build's picture)
 *   CABINET_NO_VIDEO   headless machines: "all" (or the `--no-video` flag), or ids such as "2,3,4".
 *                      Same game, meters and agent protocol; nothing is rendered or encoded (no
 *                      stream, no lobby stills), so the fault suite can run many machines on 2 cores
 *   CABINET_SPIN_MS, CABINET_REEL_STAGGER_MS, CABINET_AUTOPLAY_GAP_MS, CABINET_CASH_OUT_MS
 *                      the machines' timing in ms (game/machine-types.ts DEFAULT_TIMING when unset):
 *                      the product's browser tests play with shorter spins so they do not wait on
 *                      reel animations (e2e/product/instances.ts)
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { MachineTiming } from './game/machine-types.js';

export interface CabinetConfig {
  agentUrl: string;
  machines: { machineId: number; key: string; camera: string | null; ffmpeg: string | null; video: boolean }[];
  /** Directory of the machines' critical memory files. */
  dataDir: string;
  /** Timing set in the environment; what is not set keeps DEFAULT_TIMING. */
  timing: Partial<MachineTiming>;
}

const TIMING_ENV: Record<keyof MachineTiming, string> = {
  spinDurationMs: 'CABINET_SPIN_MS',
  reelStaggerMs: 'CABINET_REEL_STAGGER_MS',
  autoplayGapMs: 'CABINET_AUTOPLAY_GAP_MS',
  cashOutDurationMs: 'CABINET_CASH_OUT_MS',
};

/** The timing entries set in the environment, each a whole number of ms ≥ 0. */
function timingFromEnv(env: NodeJS.ProcessEnv): Partial<MachineTiming> {
  const timing: Partial<MachineTiming> = {};
  for (const [key, name] of Object.entries(TIMING_ENV) as [keyof MachineTiming, string][]) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number of ms ≥ 0, got "${raw}"`);
    timing[key] = value;
  }
  return timing;
}

function parsePairs(s: string | undefined): Map<number, string> {
  const out = new Map<number, string>();
  for (const part of (s ?? '').split(',')) {
    const [id, value] = part.split('=');
    if (id && value && Number.isInteger(Number(id))) out.set(Number(id), value.trim());
  }
  return out;
}

/** Which machines run headless: `all` (also the `--no-video` flag), or a list of ids. */
function headless(env: NodeJS.ProcessEnv, argv: readonly string[]): (machineId: number) => boolean {
  const value = (env.CABINET_NO_VIDEO ?? '').trim().toLowerCase();
  if (argv.includes('--no-video') || value === 'all' || value === 'true') return () => true;
  const ids = new Set(value.split(',').filter(Boolean).map(Number));
  return (machineId) => ids.has(machineId);
}

export function loadCabinetConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd(), argv: readonly string[] = process.argv): CabinetConfig {
  let keys = parsePairs(env.CABINET_MACHINES);
  if (keys.size === 0) {
    const file = env.CABINET_KEYS_FILE ?? resolve(cwd, 'data/machine-keys.json');
    if (existsSync(file)) {
      const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
      keys = new Map(Object.entries(json).map(([id, key]) => [Number(id), key]));
    }
  }
  const only = env.CABINET_IDS ? new Set(env.CABINET_IDS.split(',').map(Number)) : null;
  const cameras = parsePairs(env.CABINET_CAMERAS);
  const encoders = parsePairs(env.CABINET_FFMPEG);
  const isHeadless = headless(env, argv);
  const machines = [...keys.entries()]
    .filter(([id]) => !only || only.has(id))
    .sort(([a], [b]) => a - b)
    .map(([machineId, key]) => ({
      machineId,
      key,
      camera: cameras.get(machineId) ?? null,
      ffmpeg: encoders.get(machineId) ?? null,
      video: !isHeadless(machineId),
    }));
  const dataDir = env.CABINET_DATA_DIR
    ? resolve(cwd, env.CABINET_DATA_DIR)
    : env.CABINET_KEYS_FILE
      ? resolve(dirname(resolve(cwd, env.CABINET_KEYS_FILE)), 'cabinets')
      : resolve(cwd, env.DATA_DIR ?? 'data', 'cabinets');
  return { agentUrl: env.AGENT_URL ?? 'ws://127.0.0.1:8080/ws/agent', machines, dataDir, timing: timingFromEnv(env) };
}
