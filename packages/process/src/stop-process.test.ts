import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { stopChild } from './stop-process.js';

const node = (script: string) => spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });

describe('stopChild', () => {
  it('stops a child with the polite signal', async () => {
    const child = node('setInterval(() => {}, 1000)');
    await once(child, 'spawn');
    await stopChild(child, 'SIGTERM', 5000);
    expect(child.signalCode).toBe('SIGTERM');
  });

  it('kills a child that ignores the signal once the grace time is up', async () => {
    const child = node("process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000)");
    await once(child.stdout!, 'data');
    const started = Date.now();
    await stopChild(child, 'SIGTERM', 300);
    expect(child.signalCode).toBe('SIGKILL');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('resolves at once for a child that has already exited', async () => {
    const child = node('');
    await once(child, 'exit');
    await stopChild(child);
    expect(child.exitCode).toBe(0);
  });
});
