/** CPU time of processes from /proc (Linux), for per-process CPU shares over a window. */
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_S = 100;

export function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return 0;
  }
}

export function childrenOf(pid: number, name?: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid && (!name || comm === name)) out.push(Number(entry));
    } catch {
      // gone
    }
  }
  return out;
}

/** Percent of one core used by each group of pids over `ms`. */
export async function sampleCpu(
  groups: Record<string, number[]>,
  ms: number,
): Promise<Record<string, number>> {
  const before = Object.fromEntries(
    Object.entries(groups).map(([k, pids]) => [k, pids.reduce((a, p) => a + cpuTicks(p), 0)]),
  );
  await new Promise((r) => setTimeout(r, ms));
  return Object.fromEntries(
    Object.entries(groups).map(([k, pids]) => [
      k,
      ((pids.reduce((a, p) => a + cpuTicks(p), 0) - before[k]!) / TICKS_PER_S / (ms / 1000)) * 100,
    ]),
  );
}
