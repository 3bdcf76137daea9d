/**
 * A benchmark's verdict: every figure with a goal is compared with it, every sample set must reach
 * its minimum size, and a missing figure (NaN, a backend that did not run) is a miss, never a
 * silent blank. `finish()` prints the misses and makes the process exit non-zero when there are any.
 */
export interface Goal {
  /** The figure must be at most this. */
  max?: number;
  /** The figure must be at least this. */
  min?: number;
  unit?: string;
}

export class Verdict {
  private readonly misses: string[] = [];
  private readonly checked: string[] = [];

  constructor(private readonly bench: string) {}

  /** Compares a figure with its goal; answers a short "value (goal ...)" text for tables. */
  check(name: string, value: number, goal: Goal): string {
    const unit = goal.unit ? ` ${goal.unit}` : '';
    const wanted = [goal.max !== undefined ? `≤ ${goal.max}${unit}` : '', goal.min !== undefined ? `≥ ${goal.min}${unit}` : ''].filter(Boolean).join(' and ');
    const shown = Number.isFinite(value) ? `${Number(value.toFixed(2))}${unit}` : 'missing';
    const ok = Number.isFinite(value) && (goal.max === undefined || value <= goal.max) && (goal.min === undefined || value >= goal.min);
    this.checked.push(name);
    if (!ok) this.misses.push(`${name}: ${shown} (goal ${wanted})`);
    return `${shown} (goal ${wanted}: ${ok ? 'met' : 'MISSED'})`;
  }

  /** A sample set smaller than `min` (or a part that did not run) is a miss of its own. */
  samples(name: string, count: number, min: number, dropped = 0): string {
    this.checked.push(`${name} samples`);
    if (!(count >= min)) this.misses.push(`${name}: ${count} samples, fewer than the ${min} required`);
    return `N=${count}${dropped ? `, dropped ${dropped}` : ''} (min ${min})`;
  }

  /** Something the benchmark should have measured is not there at all. */
  missing(name: string, why: string) {
    this.misses.push(`${name}: not measured (${why})`);
  }

  get ok() {
    return this.misses.length === 0;
  }

  /** Prints the verdict and sets the exit code; call once, at the end. */
  finish() {
    if (this.ok) console.log(`\n${this.bench}: all ${this.checked.length} goals and sample minimums met`);
    else {
      console.log(`\n${this.bench}: ${this.misses.length} MISSED`);
      for (const miss of this.misses) console.log(`  - ${miss}`);
      process.exitCode = 1;
    }
    return this.ok;
  }
}
