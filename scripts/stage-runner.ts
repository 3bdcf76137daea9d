/**
 * How `npm test` runs its stages: one after another, several at once (the fast checks, each one
 * process, together fill two cores), or one in the background across the stages started after it
 * (the fault suite, which mostly waits on restarts, beside the checks and Vitest). Every
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

/** A stage that has ended, with the output it held back (null when it was printed live). */
interface EndedStage extends StageResult {
  heldOutput: Buffer | null;
}

interface BackgroundStage {
  readonly ended: Promise<EndedStage>;
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
    const outcomes = await Promise.all(stages.map((stage) => this.runHeldBack(stage).then(report)));
    // The table lists them in the order given, whichever ended first.
    this.results.push(...outcomes);
    return outcomes.every((outcome) => outcome.ok);
  }

  /**
   * Starts a stage in the background and returns it to be joined later; its output and its row
   * wait for the join, so they never cut into the output of the stages run meanwhile. Those must
   * be the asynchronous ones (`runTogether`): a blocked event loop would not drain its pipes.
   */
  startBeside(stage: StageCommand): BackgroundStage {
    console.log(`\n=== in the background until joined: ${stage.title} ===`);
    return { ended: this.runHeldBack(stage) };
  }

  /** Waits for a stage started by `startBeside`, prints its output and records its row. */
  async join(stage: BackgroundStage): Promise<boolean> {
    const outcome = report(await stage.ended);
    this.results.push(outcome);
    return outcome.ok;
  }

  /** Runs a command with its output held back (unless `live`); resolves when it has ended, unreported. */
  private runHeldBack({ title, command, args, live = false }: StageCommand): Promise<EndedStage> {
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
        const cpu = Number.parseFloat(cpuReport);
        const seconds = Math.round((Date.now() - started) / 1000);
        resolve({ title, ok: code === 0, seconds, ...(Number.isFinite(cpu) ? { cpuSeconds: cpu } : {}), heldOutput: live ? null : Buffer.concat(output) });
      });
    });
  }

  private record(title: string, ok: boolean, started: number, cpuSeconds: number | undefined): boolean {
    this.results.push(finished(title, ok, started, cpuSeconds));
    return ok;
  }
}

function finished(title: string, ok: boolean, started: number, cpuSeconds: number | undefined): StageResult {
  return announce({ title, ok, seconds: Math.round((Date.now() - started) / 1000), ...(cpuSeconds !== undefined ? { cpuSeconds } : {}) });
}

/** Prints an ended stage's held-back output, then its verdict; returns its row. */
function report({ heldOutput, ...result }: EndedStage): StageResult {
  if (heldOutput) {
    console.log(`\n=== ${result.title} ===`);
    process.stdout.write(heldOutput);
  }
  return announce(result);
}

function announce(result: StageResult): StageResult {
  console.log(`=== ${result.title}: ${result.ok ? 'passed' : 'FAILED'} in ${result.seconds} s ===`);
  return result;
}
