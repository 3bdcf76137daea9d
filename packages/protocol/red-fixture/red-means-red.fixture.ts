// Deliberately failing: scripts/red-means-red.test.ts checks that Vitest exits non-zero on it.
import { expect, test } from 'vitest';

test('red means red (planted failure)', () => {
  expect(1 + 1).toBe(3);
});
