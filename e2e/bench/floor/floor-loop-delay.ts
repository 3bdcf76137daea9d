/**
 * `FLOOR_BENCH_LOOP_DELAY=1`: event-loop delay in every server, cabinet and the load generator
 * itself, to tell where a slow spin waited (docs/scale.md, "The one-server tail"). The servers and
 * cabinets load e2e/bench/loop-delay-preload.mjs, which writes a line a second; the generator
 * samples its own loop with the same module. After a window: per part the worst second and how many
 * seconds had a delay over BLOCKED_MS; for the slow spins which parts were blocked while they ran,
 * in which second of the window they were sent, and how many waited before their game started.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const BLOCKED_MS = 50;
interface Second {
  t: number;
  p99: number;
  max: number;
  mean: number;
}
interface TimedSpin {
  sentAt: number;
  /** When the game started on the machine (its view left idle), if it did. */
  acceptedAt?: number;
  doneAt: number;
  overheadMs: number;
}

/** Turns the sampling on for this process and the processes started after this call; null when not asked for. */
export async function enableLoopDelay(dir: string) {
  if (!process.env.FLOOR_BENCH_LOOP_DELAY) return null;
  fs.mkdirSync(dir, { recursive: true });
  const preload = pathToFileURL(path.resolve(import.meta.dirname, '../loop-delay-preload.mjs')).href;
  process.env.LOOP_DELAY_DIR = dir;
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --import=${preload}`.trim();
  const { sampleLoopDelay } = (await import(preload)) as { sampleLoopDelay: (file: string) => void };
  sampleLoopDelay(path.join(dir, `generator-${process.pid}.jsonl`));

  const read = (): Map<string, Second[]> => {
    const parts = new Map<string, Second[]>();
    for (const file of fs.readdirSync(dir)) {
      const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n').filter(Boolean);
      parts.set(file.replace('.jsonl', ''), lines.map((l) => JSON.parse(l) as Second));
    }
    return parts;
  };

  return {
    /** Lines for the report: the window [from, to), and its spins slower than `slowMs`. */
    report(from: number, to: number, spins: TimedSpin[], slowMs: number): string[] {
      const parts = read();
      const lines: string[] = [];
      for (const [part, seconds] of parts) {
        const inWindow = seconds.filter((s) => s.t > from && s.t <= to + 1000);
        if (!inWindow.length) continue;
        const worst = inWindow.reduce((a, b) => (b.max > a.max ? b : a));
        const blocked = inWindow.filter((s) => s.max > BLOCKED_MS).length;
        const meanP99 = inWindow.reduce((sum, s) => sum + s.p99, 0) / inWindow.length;
        lines.push(`  event-loop delay ${part}: ${inWindow.length} s sampled, worst second max ${worst.max} ms (p99 ${worst.p99}), mean of per-second p99 ${meanP99.toFixed(1)} ms, ${blocked} s with a delay > ${BLOCKED_MS} ms`);
      }
      const slow = spins.filter((s) => s.overheadMs > slowMs);
      if (!slow.length) return lines;
      const blame = new Map<string, number>();
      const perSecond = new Map<number, number>();
      for (const spin of slow) {
        const blocked = [...parts]
          .filter(([, seconds]) => seconds.some((s) => s.t > spin.sentAt && s.t - 1000 < spin.doneAt && s.max > BLOCKED_MS))
          .map(([part]) => part.replace(/-\d+$/, ''));
        const key = [...new Set(blocked)].sort().join(' + ') || 'no loop blocked';
        blame.set(key, (blame.get(key) ?? 0) + 1);
        const second = Math.floor((spin.sentAt - from) / 1000);
        perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
      }
      const late = slow.filter((s) => s.acceptedAt !== undefined && s.acceptedAt - s.sentAt > slowMs / 2).length;
      lines.push(`  spins over ${slowMs} ms (${slow.length}) while a loop was blocked > ${BLOCKED_MS} ms: ${[...blame].map(([k, n]) => `${k} ${n}`).join(', ')}`);
      lines.push(`  spins over ${slowMs} ms by second of the window: ${[...perSecond].sort((a, b) => a[0] - b[0]).map(([t, n]) => `${t} s ×${n}`).join(', ')}; ${late} of them waited over ${slowMs / 2} ms before the game started`);
      return lines;
    },
  };
}
