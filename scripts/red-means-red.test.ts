/**
 * Red means red: a failing test must make the test command fail. Runs Vitest in a child process
 * on the planted failing fixtures (scripts/red-fixtures.ts) and expects a non-zero exit, for the
 * server project alone (its global setup starts PostgreSQL, whose old exit hook turned every exit
 * code into 0) and for every project together. The operator CLI's exit codes are checked the same
 * way, on its embedded-PostgreSQL path.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

const vitestOnFixtures = (...args: string[]) =>
  run(bin('vitest'), ['run', '--reporter=dot', ...args, 'red-fixture/red-means-red'], { REEL_RED_FIXTURES: '1', CI: '' });

describe('vitest exit code', () => {
  it('is non-zero when a server test fails', async () => {
    const { code, output } = await vitestOnFixtures('--project', 'server');
    expect(output).toMatch(/1 failed/);
    expect(code, output).not.toBe(0);
  });

  it('is non-zero when tests fail in every project run together (server included)', async () => {
    const { code, output } = await vitestOnFixtures();
    expect(output).toMatch(/5 failed/);
    expect(code, output).not.toBe(0);
  });
});

describe('operator CLI exit code on the embedded PostgreSQL', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reel-operator-exit-'));
  // As root, PostgreSQL runs as its own user, which must be able to enter the folder.
  fs.chmodSync(dataDir, 0o755);
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const operator = (...args: string[]) =>
    run(bin('tsx'), ['apps/server/src/cli/operator.ts', ...args], { DATA_DIR: dataDir, DATABASE_URL: '' });

  it('is 1 for a refused command, 2 for a usage error, 0 for a good one', async () => {
    const refused = await operator('withdraw', 'nobody', '5');
    expect(refused.output).toContain('Error 40400');
    expect(refused.code).toBe(1);
    expect((await operator('deposit')).code).toBe(2);
    const audit = await operator('audit');
    expect(audit.output).toContain('Ledger OK.');
    expect(audit.code).toBe(0);
  });
});
