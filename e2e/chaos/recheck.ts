/**
 * Runs the checker again on what a failed fault run kept (`<data folder>/chaos-check.json`: the
 * history, the baseline and the observed state), e.g. after changing the checker:
 *   tsx e2e/chaos/recheck.ts /tmp/reel-chaos-XXXX/chaos-check.json
 */
import fs from 'node:fs';
import { check } from './checker.js';
import type { Baseline, History, Observed } from './history.js';

const file = process.argv[2];
if (!file) {
  console.error('usage: tsx e2e/chaos/recheck.ts <chaos-check.json>');
  process.exit(2);
}
const { history, baseline, observed } = JSON.parse(fs.readFileSync(file, 'utf8')) as { history: History; baseline: Baseline; observed: Observed };
const verdict = check(history, baseline, observed);
for (const v of verdict.violations) console.log(`violation: ${v}`);
console.log(`recheck: ${verdict.violations.length} violations, ${verdict.malfunctions} malfunctions, ${verdict.centsChecked} cents checked`);
process.exit(verdict.violations.length ? 1 : 0);
