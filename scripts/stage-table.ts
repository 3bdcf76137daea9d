/**
 * The table `npm test` ends with: every stage, whether it passed, how long it took, and the CPU
 * time its processes used. On a shared machine the wall time depends on what else runs; the CPU
 * time much less, and CPU ÷ cores is the least the stage can take on a quiet machine.
 */
import fs from 'node:fs';

export interface StageResult {
  title: string;
  ok: boolean;
  seconds: number;
  /** User + system CPU seconds of the stage's processes (and their children), when known. */
  cpuSeconds?: number;
}

/** Linux's USER_HZ: the unit of the CPU times in /proc/<pid>/stat. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU seconds used so far by this process's finished children and their descendants (each waited
 * for by its parent), from /proc/self/stat's cutime and cstime; undefined without /proc.
 */
export function childrenCpuSeconds(): number | undefined {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of stat(5), counted from the state (field 3) at index 0.
    return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

const minutes = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

export function formatStageTable(stages: StageResult[], totalSeconds: number): string {
  const width = Math.max(5, ...stages.map((stage) => stage.title.length));
  const cpu = (seconds?: number) => (seconds === undefined ? '' : `${String(Math.round(seconds)).padStart(5)} s`);
  const row = (title: string, result: string, seconds: number, cpuSeconds?: number) =>
    `${title.padEnd(width)}  ${result.padEnd(6)}  ${String(seconds).padStart(5)} s  ${minutes(seconds).padStart(6)}  ${cpu(cpuSeconds).padStart(7)}`.trimEnd();
  const totalCpu = stages.every((stage) => stage.cpuSeconds !== undefined) ? stages.reduce((sum, stage) => sum + stage.cpuSeconds!, 0) : undefined;
  return [
    `${'stage'.padEnd(width)}  ${'result'.padEnd(6)}  ${'wall'.padStart(7)}  ${'m:ss'.padStart(6)}  ${'CPU'.padStart(7)}`,
    ...stages.map((stage) => row(stage.title, stage.ok ? 'passed' : 'FAILED', stage.seconds, stage.cpuSeconds)),
    row('total (with installs and set-up)', '', totalSeconds, totalCpu),
  ].join('\n');
}
