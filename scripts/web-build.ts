/** Builds the web app (apps/web/dist) when its sources, or the protocol it imports, changed. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDir = path.join(root, 'apps/web');
const builtIndex = path.join(webDir, 'dist/index.html');

function newestMtimeMs(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtimeMs(path.join(target, entry)));
  }
  return newest;
}

/**
 * Set by `npm test` once its web build stage has built the app: every product it starts then uses
 * that build as it is. Vitest runs beside the product browser tests, and lint-walls.test.ts plants
 * files under apps/web/src for a moment, which would otherwise look like a changed source.
 */
export const WEB_BUILT_ENV = 'REEL_WEB_BUILT';

export function webBuildIsStale() {
  if (process.env[WEB_BUILT_ENV] === '1' && fs.existsSync(builtIndex)) return false;
  if (!fs.existsSync(builtIndex)) return true;
  const sources = Math.max(newestMtimeMs(webDir), newestMtimeMs(path.join(root, 'packages/protocol/src')));
  return sources > fs.statSync(builtIndex).mtimeMs;
}

export function buildWeb() {
  console.log('Building the web app…');
  const result = spawnSync('npm', ['run', 'build', '-w', '@reel/web', '--silent'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('web build failed');
}
