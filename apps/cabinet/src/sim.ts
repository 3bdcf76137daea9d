/**
 * RTP simulation: `npm run sim -w @reel/cabinet -- 10000000 [--workers 2]`.
 * Runs N paid spins across worker threads and compares the measured RTP with the exact design
 * figure from math.ts; exits 1 when the difference exceeds ±0.5 percentage points.
 */
import { isMainThread, parentPort, workerData, type Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { simulate, type SimTotals } from './game/simulate.js';
import { computeDesignMath } from '@reel/protocol';
import { startWorker } from './worker-thread.js';

const TOLERANCE_PCT = 0.5;

const spawnWorker = (data: { spins: number }): Worker => startWorker(import.meta.url, data);

if (!isMainThread) {
  parentPort!.postMessage(simulate((workerData as { spins: number }).spins));
} else {
  const args = process.argv.slice(2);
  const spins = Number(args.find((a) => /^\d+$/.test(a)) ?? 10_000_000);
  const wIdx = args.indexOf('--workers');
  const workers = wIdx >= 0 ? Number(args[wIdx + 1]) : Math.min(2, availableParallelism());
  const started = performance.now();
  const parts = await Promise.all(
    Array.from({ length: workers }, (_, i) => {
      const share = Math.floor(spins / workers) + (i < spins % workers ? 1 : 0);
      return new Promise<SimTotals>((resolve, reject) => {
        const w = spawnWorker({ spins: share });
        w.once('message', resolve);
        w.once('error', reject);
      });
    }),
  );
  const t = parts.reduce((a, b) => ({
    spins: a.spins + b.spins,
    betUnits: a.betUnits + b.betUnits,
    winUnits: a.winUnits + b.winUnits,
    hits: a.hits + b.hits,
    freeSpins: a.freeSpins + b.freeSpins,
    triggers: a.triggers + b.triggers,
    sumSquares: a.sumSquares + b.sumSquares,
  }));
  const elapsedS = (performance.now() - started) / 1000;
  const design = computeDesignMath();
  const rtp = t.winUnits / t.betUnits;
  const mean = rtp;
  const sd = Math.sqrt(t.sumSquares / t.spins - mean * mean);
  const se = sd / Math.sqrt(t.spins);
  const diffPct = (rtp - design.totalRtp) * 100;
  const pct = (x: number) => `${(x * 100).toFixed(3)}%`;
  console.log(
    `spins            ${t.spins.toLocaleString('en')} paid (+${t.freeSpins.toLocaleString('en')} free) on ${workers} worker(s) in ${elapsedS.toFixed(1)} s`,
  );
  console.log(
    `design RTP       ${pct(design.totalRtp)}  (lines ${pct(design.lineRtp)}, scatter ${pct(design.scatterRtp)}, free spins ${pct(design.freeSpinRtp)})`,
  );
  console.log(
    `measured RTP     ${pct(rtp)}  (diff ${diffPct >= 0 ? '+' : ''}${diffPct.toFixed(3)} pp, std error ${(se * 100).toFixed(3)} pp, sd/spin ${sd.toFixed(2)})`,
  );
  console.log(`hit frequency    ${pct(t.hits / t.spins)}  (1 in ${(t.spins / t.hits).toFixed(2)})`);
  console.log(
    `bonus frequency  1 in ${(t.spins / Math.max(1, t.triggers)).toFixed(0)} (design 1 in ${(1 / design.triggerProbability).toFixed(0)})`,
  );
  const ok = Math.abs(diffPct) <= TOLERANCE_PCT;
  console.log(
    ok ? `PASS: within ±${TOLERANCE_PCT} pp of design` : `FAIL: outside ±${TOLERANCE_PCT} pp of design`,
  );
  process.exitCode = ok ? 0 : 1;
}
