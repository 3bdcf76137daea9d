import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@reel/protocol';
import { readSettings } from './runtime-settings.js';

describe('runtime settings', () => {
  it('are the defaults without a file, the operator file over them, and follow an edit of the file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'settings-'));
    const file = path.join(dir, 'Settings.json');
    expect(readSettings(file).FPS).toBe(DEFAULT_SETTINGS.FPS);
    fs.writeFileSync(file, JSON.stringify({ FPS: 12 }));
    expect(readSettings(file).FPS).toBe(12);
    // Read again without a change: the same object, not a new parse.
    expect(readSettings(file)).toBe(readSettings(file));
    fs.writeFileSync(file, JSON.stringify({ FPS: 24, HOT_FLAG_LIMIT: 5 }));
    expect(readSettings(file)).toMatchObject({ FPS: 24, HOT_FLAG_LIMIT: 5 });
    fs.writeFileSync(file, '{ broken');
    expect(readSettings(file).FPS).toBe(DEFAULT_SETTINGS.FPS);
    fs.rmSync(dir, { recursive: true });
  });
});
