import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { isAlive, waitGone } from './stop-process.js';

const hasSetpriv = () => new Promise<boolean>((resolve) => spawn('setpriv', ['--version']).on('error', () => resolve(false)).on('exit', (code) => resolve(code === 0)));

describe('spawnTied', () => {
  it('takes the child down with its parent, even when the parent is killed with -9', async (ctx) => {
    if (!(await hasSetpriv())) {
      console.log('skipped: setpriv (util-linux) is not installed, children are not tied');
      ctx.skip();
    }
    // A parent process that ties a long sleep to itself and prints the sleep's pid.
    const script = `
      import { spawnTied } from './packages/process/src/spawn-tied.ts';
      const child = spawnTied('sleep', ['60'], { stdio: 'ignore' });
      console.log(child.pid);
      setInterval(() => {}, 1000);
    `;
    const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const childPid = await new Promise<number>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
    await sleep(200);
    expect(isAlive(childPid)).toBe(true);
    parent.kill('SIGKILL');
    expect(await waitGone(childPid, 5_000)).toBe(true);
  });
});
