/**
 * Every unit, component and API test of the repository, one project per workspace.
 * `REEL_RED_FIXTURES=1` adds one deliberately failing test to each project: the red-means-red guard
 * (scripts/red-means-red.test.ts) runs Vitest on them in a child process and expects it to fail.
 */
import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { RED_FIXTURES } from './scripts/red-fixtures.js';

export default defineConfig({
  test: {
    allowOnly: false,
    // Many server tests mostly wait (on PostgreSQL, child processes, sockets): on a 2-core CI box
    // Vitest's default (cores − 1, i.e. one file at a time) leaves a core idle. VITEST_MAX_WORKERS overrides.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || Math.max(2, os.availableParallelism()),
    projects: [
      {
        test: {
          name: 'tooling',
          root: 'scripts',
          include: ['**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'protocol',
          root: 'packages/protocol',
          include: ['src/**/*.test.ts', ...RED_FIXTURES],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'process',
          root: 'packages/process',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'media-control',
          root: 'packages/media-control',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts', ...RED_FIXTURES],
          environment: 'node',
          globalSetup: ['test/global-setup.ts'],
          setupFiles: ['test/protocol-drift-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'cabinet',
          root: 'apps/cabinet',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts', ...RED_FIXTURES],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'media',
          root: 'apps/media',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts', ...RED_FIXTURES],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        test: {
          // The fault suite's checker on planted histories (no processes; the suite itself is `npm run chaos`).
          name: 'chaos',
          root: 'e2e/chaos',
          include: ['**/*.test.ts'],
          environment: 'node',
        },
      },
      'apps/web/vitest.config.ts',
    ],
  },
});
