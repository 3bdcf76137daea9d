import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { StageRunner } from './stage-runner.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const node = (source: string) => ({ command: process.execPath, args: ['-e', source] });

describe('the stage runner of npm test', () => {
  it('runs stages at once, each with its own result, wall and CPU time, listed in the order given', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const runner = new StageRunner(root);
    const started = Date.now();
    const ok = await runner.runTogether([
      // Ends last, burns CPU of its own: its row must still come first and carry that CPU.
      { title: 'burns', ...node('while (process.cpuUsage().user < 300000);') },
      { title: 'waits', ...node('setTimeout(() => {}, 4000)') },
      { title: 'waits too', ...node('setTimeout(() => {}, 4000)') },
      { title: 'fails', ...node('process.exit(3)') },
    ]);
    const wall = (Date.now() - started) / 1000;
    expect(ok).toBe(false);
    expect(runner.results.map((stage) => [stage.title, stage.ok])).toEqual([
      ['burns', true],
      ['waits', true],
      ['waits too', true],
      ['fails', false],
    ]);
    expect(runner.results[0]!.cpuSeconds).toBeGreaterThanOrEqual(0.3);
    // At once: the two waits together took about as long as one.
    expect(wall).toBeLessThan(runner.results[1]!.seconds + runner.results[2]!.seconds - 0.5);
    vi.restoreAllMocks();
  }, 60_000);

  it('runs a stage in the background across others: its output and row wait for the join', async () => {
    const logged: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void logged.push(line));
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (logged.push(String(chunk)), true));
    const runner = new StageRunner(root);
    const started = Date.now();
    const background = runner.startBeside({ title: 'in the background', ...node('console.log("background says"); setTimeout(() => {}, 2000)') });
    await runner.runTogether([{ title: 'meanwhile', ...node('setTimeout(() => {}, 3000)') }]);
    // The background stage ended while 'meanwhile' ran, but has not been reported.
    expect(logged.join('\n')).not.toContain('background says');
    expect(await runner.join(background)).toBe(true);
    const wall = (Date.now() - started) / 1000;
    const said = logged.join('\n');
    expect(said.indexOf('background says')).toBeGreaterThan(said.indexOf('meanwhile: passed'));
    expect(runner.results.map((stage) => stage.title)).toEqual(['meanwhile', 'in the background']);
    // Beside each other: together about as long as one.
    expect(wall).toBeLessThan(runner.results[0]!.seconds + runner.results[1]!.seconds - 0.5);
    vi.restoreAllMocks();
  }, 60_000);

  it('runs a stage alone and records a failure', () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const runner = new StageRunner(root);
    expect(runner.run({ title: 'fails alone', ...node('process.exit(1)') })).toBe(false);
    expect(runner.results).toMatchObject([{ title: 'fails alone', ok: false }]);
    vi.restoreAllMocks();
  }, 30_000);
});
