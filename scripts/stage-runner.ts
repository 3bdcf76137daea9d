/**
 * How `npm test` runs its stages: one after another, or several at once (the fast checks, each one
 * process, together fill two cores; Vitest and the product browser tests both mostly wait). Every
 * stage is timed and keeps its own row in the stage table, with the CPU time of its own processes
 * even when others run beside it. Output of a stage that runs beside others is held back and
 * printed whole when it ends (except the one marked `live`), so logs never interleave.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { childrenCpuSeconds, type StageResult } from './stage-table.js';

interface StageCommand {
  title: string;
  command: string;
  args: string[];
  /** Beside others: print its output as it comes (at most one such stage), the others' when they end. */
  live?: boolean;
}

export class StageRunner {
  readonly results: StageResult[] = [];

  constructor(private readonly cwd: string) {}

  /** Times `body` as one stage, alone. */
  timed(title: string, body: () => boolean): boolean {
    console.log(`\n=== ${title} ===`);
    const started = Date.now();
    const cpuBefore = childrenCpuSeconds();
    const ok = body();
    const cpuAfter = childrenCpuSeconds();
    return this.record(title, ok, started, cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined);
  }

  /** One command as one stage, alone, its output live. */
  run({ title, command, args }: StageCommand): boolean {
    return this.timed(title, () => spawnSync(command, args, { cwd: this.cwd, stdio: 'inherit', env: process.env }).status === 0);
  }

  /** Several commands at once, each its own stage; resolves when all have ended. */
  async runTogether(stages: StageCommand[]): Promise<boolean> {
    console.log(`\n=== at once: ${stages.map((stage) => stage.title).join(' | ')} ===`);
    const outcomes = await Promise.all(stages.map((stage) => this.runHeldBack(stage)));
    // The table lists them in the order given, whichever ended first.
    this.results.push(...outcomes);
    return outcomes.every((outcome) => outcome.ok);
  }

  private runHeldBack({ title, command, args, live = false }: StageCommand): Promise<StageResult> {
    const started = Date.now();
    if (live) console.log(`\n=== ${title} (output as it comes) ===`);
    // cpu-of.ts runs the command and reports its process tree's CPU time on fd 3.
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(this.cwd, 'scripts/cpu-of.ts'), command, ...args], {
      cwd: this.cwd,
      env: process.env,
      stdio: ['ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe', 'pipe'],
    });
    const output: Buffer[] = [];
    let cpuReport = '';
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stdio[3]!.on('data', (chunk: Buffer) => (cpuReport += chunk.toString()));
    return new Promise((resolve) => {
      child.on('close', (code) => {
        if (!live) {
          console.log(`\n=== ${title} ===`);
          process.stdout.write(Buffer.concat(output));
        }
        const cpu = Number.parseFloat(cpuReport);
        resolve(finished(title, code === 0, started, Number.isFinite(cpu) ? cpu : undefined));
      });
    });
  }

  private record(title: string, ok: boolean, started: number, cpuSeconds: number | undefined): boolean {
    this.results.push(finished(title, ok, started, cpuSeconds));
    return ok;
  }
}

function finished(title: string, ok: boolean, started: number, cpuSeconds: number | undefined): StageResult {
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`=== ${title}: ${ok ? 'passed' : 'FAILED'} in ${seconds} s ===`);
  return { title, ok, seconds, ...(cpuSeconds !== undefined ? { cpuSeconds } : {}) };
}
