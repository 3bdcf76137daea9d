// Preloaded (NODE_OPTIONS --import) by the floor bench into the servers and cabinets it starts when
// FLOOR_BENCH_LOOP_DELAY is set: node's event-loop delay histogram (perf_hooks, 5 ms resolution),
// written and reset once a second as one JSON line to LOOP_DELAY_DIR/<part>-<pid>.jsonl, so the
// bench can say whether a slow spin waited on a blocked loop in a server, a cabinet, or neither.
// The bench samples its own loop with `sampleLoopDelay` (e2e/bench/floor/floor-loop-delay.ts).
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** Appends this process's event-loop delay of each second to `file`. */
export function sampleLoopDelay(file) {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  setInterval(() => {
    const line = { t: Date.now(), p99: ms(histogram.percentile(99)), max: ms(histogram.max), mean: ms(histogram.mean) };
    histogram.reset();
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  }, 1000).unref();
}

const dir = process.env.LOOP_DELAY_DIR;
const part = process.argv.map((arg) => /apps[\\/](server|cabinet)[\\/]src[\\/]/.exec(arg)?.[1]).find(Boolean);
if (dir && part) sampleLoopDelay(path.join(dir, `${part}-${process.pid}.jsonl`));
