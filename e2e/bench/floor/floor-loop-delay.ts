/**
 * `FLOOR_BENCH_LOOP_DELAY=1`: event-loop delay in every server, cabinet and the load generator
 * itself, to tell where a slow spin waited (docs/scale.md, "The one-server tail"). The servers and
 * cabinets load e2e/bench/loop-delay-preload.mjs, which writes a line a second; the generator
 * samples its own loop the same way. After a window: per part the worst second and how many
 * seconds had a delay over BLOCKED_MS, and for each slow spin which parts were blocked while it ran.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const BLOCKED_MS = 50;
interface Second {
  t: number;
  p99: number;
  max: number;
  mean: number;
}

/** Turns the sampling on for the processes started after this call; null when not asked for. */
export function enableLoopDelay(dir: string) {
  if (!process.env.FLOOR_BENCH_LOOP_DELAY) return null;
  fs.mkdirSync(dir, { recursive: true });
  const preload = pathToFileURL(path.resolve(import.meta.dirname, '../loop-delay-preload.mjs')).href;
  process.env.LOOP_DELAY_DIR = dir;
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --import=${preload}`.trim();
  const own = monitorEventLoopDelay({ resolution: 5 });
  own.enable();
  const generator: Second[] = [];
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  setInterval(() => {
    generator.push({ t: Date.now(), p99: ms(own.percentile(99)), max: ms(own.max), mean: ms(own.mean) });
    own.reset();
  }, 1000).unref();

  const read = (): Map<string, Second[]> => {
    const parts = new Map<string, Second[]>([['generator', generator]]);
    for (const file of fs.readdirSync(dir)) {
      const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n').filter(Boolean);
      parts.set(file.replace('.jsonl', ''), lines.map((l) => JSON.parse(l) as Second));
    }
    return parts;
  };

  return {
    /** Lines for the report: the window [from, to), and the spins slower than `slowMs`. */
    report(from: number, to: number, spins: { sentAt: number; doneAt: number; overheadMs: number }[], slowMs: number): string[] {
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
      const blame = new Map<string, number>();
      for (const spin of slow) {
        const blocked = [...parts]
          .filter(([, seconds]) => seconds.some((s) => s.t > spin.sentAt && s.t - 1000 < spin.doneAt && s.max > BLOCKED_MS))
          .map(([part]) => part.replace(/-\d+$/, ''));
        const key = [...new Set(blocked)].sort().join(' + ') || 'no loop blocked';
        blame.set(key, (blame.get(key) ?? 0) + 1);
      }
      if (slow.length) lines.push(`  spins over ${slowMs} ms (${slow.length}) while a loop was blocked > ${BLOCKED_MS} ms: ${[...blame].map(([k, n]) => `${k} ${n}`).join(', ')}`);
      return lines;
    },
  };
}
