/** CPU time of processes from /proc (Linux), for per-process CPU shares over a window. */
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_S = 100;

function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return 0;
  }
}

/** Every live process as pid → { ppid, comm }, read once from /proc. */
function processTable(): Map<number, { ppid: number; comm: string }> {
  const table = new Map<number, { ppid: number; comm: string }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      table.set(Number(entry), { ppid, comm });
    } catch {
      // gone
    }
  }
  return table;
}

export function childrenOf(pid: number, name?: string | RegExp): number[] {
  const out: number[] = [];
  for (const [child, { ppid, comm }] of processTable()) {
    if (ppid !== pid) continue;
    if (name === undefined || (typeof name === 'string' ? comm === name : name.test(comm))) out.push(child);
  }
  return out;
}

/**
 * A process and all its descendants (children, their children, …), following the ppid links in
 * /proc. A backend's CPU is its whole tree: the Janus adapter's janus child, the cabinet's ffmpeg
 * encoders, Chromium's renderer and GPU processes.
 */
export function processTree(pid: number | undefined, name?: RegExp): number[] {
  if (!pid) return [];
  const table = processTable();
  if (!table.has(pid)) return [];
  const kids = new Map<number, number[]>();
  for (const [child, { ppid }] of table) kids.set(ppid, [...(kids.get(ppid) ?? []), child]);
  const out: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const p = queue.shift()!;
    if (name === undefined || p === pid || name.test(table.get(p)?.comm ?? '')) out.push(p);
    queue.push(...(kids.get(p) ?? []));
  }
  return out;
}

/** Named groups of processes, each a function listing its pids now (e.g. `() => processTree(pid)`). */
export type CpuGroups = Record<string, () => number[]>;

/**
 * Starts measuring each group's CPU; `stop()` answers percent of one core per group since the
 * start. A group's pids are listed at the start and at the stop, so a process started in between
 * counts from zero. A process that ended in between loses its last ticks (they go to its parent's
 * cutime, which is not read).
 */
export function startCpuSampler(groups: CpuGroups): { stop(): Record<string, number> } {
  const before = Object.fromEntries(
    Object.entries(groups).map(([k, list]) => [k, new Map(list().map((p) => [p, cpuTicks(p)]))]),
  );
  const t0 = performance.now();
  return {
    stop() {
      const elapsedS = (performance.now() - t0) / 1000;
      return Object.fromEntries(
        Object.entries(groups).map(([k, list]) => {
          const start = before[k]!;
          let ticks = 0;
          for (const p of new Set([...start.keys(), ...list()])) {
            const now = cpuTicks(p);
            if (now > 0) ticks += now - (start.get(p) ?? 0);
          }
          return [k, (ticks / TICKS_PER_S / elapsedS) * 100];
        }),
      );
    },
  };
}
