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
  },
});
