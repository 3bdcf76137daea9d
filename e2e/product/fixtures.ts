/**
 * `test` and `expect` for the product's browser tests. `baseURL` is this worker's own product
 * (playwright.config.ts, instances.ts). After each test the product's log is read: a process the
 * supervisor had to restart, a PostgreSQL that died or an error-level line fails the test, unless
 * the test declared with `allowProductFaults(...)` that it causes it on purpose (it kills a part,
 * swaps a cabinet). A declaration also covers lines that arrive shortly after its test ended.
 */
import { test as base, type TestInfo } from '@playwright/test';
import { workerProduct } from './instances';
import { describeFaults, faultOf, markChecked, readLog } from './product-log';

const ALLOW = 'product-fault-allowed';
/** How long after its test a declaration still covers late lines (a restart's backoff, a retry). */
const LATE_LINES_MS = 30_000;

/** Lines matching any of `patterns` are faults this test causes on purpose. */
export function allowProductFaults(...patterns: RegExp[]): void {
  for (const pattern of patterns) test.info().annotations.push({ type: ALLOW, description: pattern.source });
}

const allowancesOf = (info: TestInfo) =>
  info.annotations.filter((a) => a.type === ALLOW && a.description).map((a) => new RegExp(a.description!));

/** The previous test of this worker: when it ended and what it allowed (in memory: one worker, one product). */
let previous: { endedAt: number; allowed: RegExp[] } | null = null;

export const test = base.extend<{ productLogCheck: void }>({
  productLogCheck: [
    // Playwright reads a fixture's dependencies from this pattern: none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, testInfo) => {
      const { logFile } = workerProduct();
      const from = previous?.endedAt ?? Date.now();
      await use();
      const endedAt = Date.now();
      const allowed = allowancesOf(testInfo);
      const before = previous;
      const faults = readLog(logFile).filter(
        (line) =>
          line.at > from &&
          line.at <= endedAt &&
          faultOf(line.text) &&
          !allowed.some((pattern) => pattern.test(line.text)) &&
          !(before && line.at <= before.endedAt + LATE_LINES_MS && before.allowed.some((pattern) => pattern.test(line.text))),
      );
      markChecked(logFile, from, endedAt);
      previous = { endedAt, allowed };
      if (faults.length)
        throw new Error(
          `the product logged ${faults.length} fault(s) during this test that it did not declare (allowProductFaults):\n${describeFaults(faults)}`,
        );
    },
    { auto: true },
  ],
});

export { expect } from '@playwright/test';
