import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { RED_FIXTURES } from '../../scripts/red-fixtures.js';

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  oxc: { jsx: { runtime: 'automatic' } },
  test: {
    name: 'web',
    root: import.meta.dirname,
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', ...RED_FIXTURES],
    allowOnly: false,
    setupFiles: ['./src/testing/setup-tests.ts'],
    css: false,
    restoreMocks: true,
    testTimeout: 15_000,
    // Each file in a VM context of a long-lived worker: its own modules and jsdom as before, without
    // a new process that imports jsdom again per file (84 s → 28 s for the 42 files on 2 cores).
    pool: 'vmThreads',
  },
});
