// Installs the npm packages exactly as package-lock.json pins them (`npm ci`), only when they are
// missing or the lockfile or a package.json changed since the last install. Never rewrites the
// lockfile. Plain JavaScript because it runs before TypeScript tooling (tsx) is installed.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stampFile = path.join(root, 'node_modules', '.reel-deps-stamp');

function manifestHash() {
  const hash = crypto.createHash('sha256');
  const rootManifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  for (const file of ['package-lock.json', 'package.json', ...rootManifest.workspaces.map((w) => `${w}/package.json`)]) {
    hash.update(file).update(fs.readFileSync(path.join(root, file)));
  }
  return hash.digest('hex');
}

const wanted = manifestHash();
const have = fs.existsSync(stampFile) ? fs.readFileSync(stampFile, 'utf8').trim() : '';
if (have !== wanted) {
  console.log('Installing npm packages (npm ci)…');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('npm ci failed: the packages above could not be installed (is package-lock.json in sync with package.json?).');
    process.exit(result.status ?? 1);
  }
  fs.writeFileSync(stampFile, `${wanted}\n`);
}
