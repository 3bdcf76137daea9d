import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { janusEventLoops, writeJanusConfig } from './janus-config.js';

const dirs: string[] = [];
afterEach(() => {
  vi.unstubAllEnvs();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function generalSection() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'janus-config-'));
  dirs.push(dir);
  writeJanusConfig(dir, { lib: '/usr/lib/janus', httpPort: 8088, iceServers: [] });
  const text = readFileSync(path.join(dir, 'janus.jcfg'), 'utf8');
  return text.slice(text.indexOf('general: {'), text.indexOf('}'));
}

describe("Janus' threading", () => {
  it('shares one event loop a core among the viewers by default', () => {
    vi.stubEnv('JANUS_EVENT_LOOPS', '');
    expect(janusEventLoops()).toBe(os.availableParallelism());
    expect(generalSection()).toContain(`event_loops = ${os.availableParallelism()}`);
  });

  it('JANUS_EVENT_LOOPS sets the number, and 0 gives back a thread per viewer', () => {
    vi.stubEnv('JANUS_EVENT_LOOPS', '3');
    expect(generalSection()).toContain('event_loops = 3');
    vi.stubEnv('JANUS_EVENT_LOOPS', '0');
    expect(generalSection()).not.toContain('event_loops');
  });
});
