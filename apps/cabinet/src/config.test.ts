import { describe, expect, it } from 'vitest';
import { loadCabinetConfig } from './config.js';

describe('cabinet configuration', () => {
  it('keeps the critical memory beside the keys file, in DATA_DIR, or where CABINET_DATA_DIR says', () => {
    expect(loadCabinetConfig({ CABINET_KEYS_FILE: '/srv/reel/machine-keys.json' }, '/repo').dataDir).toBe('/srv/reel/cabinets');
    expect(loadCabinetConfig({ DATA_DIR: 'var/data' }, '/repo').dataDir).toBe('/repo/var/data/cabinets');
    expect(loadCabinetConfig({}, '/repo').dataDir).toBe('/repo/data/cabinets');
    expect(loadCabinetConfig({ CABINET_DATA_DIR: 'nvram', CABINET_KEYS_FILE: '/k.json' }, '/repo').dataDir).toBe('/repo/nvram');
  });

  it('CABINET_FFMPEG names another ffmpeg for some machines', () => {
    const config = loadCabinetConfig({ CABINET_MACHINES: '1=a,2=b,3=c', CABINET_FFMPEG: '2=/opt/ff/ffmpeg' }, '/repo');
    expect(config.machines.map((m) => m.ffmpeg)).toEqual([null, '/opt/ff/ffmpeg', null]);
  });

  it('CABINET_NO_VIDEO or --no-video runs machines headless', () => {
    const env = { CABINET_MACHINES: '1=a,2=b,3=c' };
    expect(loadCabinetConfig(env, '/repo', []).machines.map((m) => m.video)).toEqual([true, true, true]);
    expect(loadCabinetConfig({ ...env, CABINET_NO_VIDEO: '2,3' }, '/repo', []).machines.map((m) => m.video)).toEqual([true, false, false]);
    expect(loadCabinetConfig({ ...env, CABINET_NO_VIDEO: 'all' }, '/repo', []).machines.map((m) => m.video)).toEqual([false, false, false]);
    expect(loadCabinetConfig(env, '/repo', ['node', 'main.ts', '--no-video']).machines.map((m) => m.video)).toEqual([false, false, false]);
  });

  it('reads the machines\' timing from the environment, keeps the defaults for the rest, refuses junk', () => {
    expect(loadCabinetConfig({}, '/repo', []).timing).toEqual({});
    expect(loadCabinetConfig({ CABINET_SPIN_MS: '300', CABINET_AUTOPLAY_GAP_MS: '0' }, '/repo', []).timing).toEqual({ spinDurationMs: 300, autoplayGapMs: 0 });
    expect(() => loadCabinetConfig({ CABINET_REEL_STAGGER_MS: 'fast' }, '/repo', [])).toThrow(/CABINET_REEL_STAGGER_MS must be a whole number/);
    expect(() => loadCabinetConfig({ CABINET_CASH_OUT_MS: '-1' }, '/repo', [])).toThrow(/CABINET_CASH_OUT_MS/);
  });
});
