/**
 * `npm start`: builds the web app when its sources changed, then runs the server (which starts the
 * embedded PostgreSQL, migrates, seeds demo data, the media process and the demo cabinets).
 * Ctrl-C stops everything; the data under ./data (DATA_DIR) stays for the next start.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
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

export function webBuildIsStale() {
  if (!fs.existsSync(builtIndex)) return true;
  const sources = Math.max(newestMtimeMs(webDir), newestMtimeMs(path.join(root, 'packages/protocol/src')));
  return sources > fs.statSync(builtIndex).mtimeMs;
}

export function buildWeb() {
  console.log('Building the web app…');
  const result = spawnSync('npm', ['run', 'build', '-w', '@reel/web', '--silent'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('web build failed');
}

async function waitForServer(port: number, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/check`)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (webBuildIsStale()) buildWeb();
  const port = Number(process.env.PORT || 8080);
  const dataDir = path.resolve(root, process.env.DATA_DIR || 'data');
  const children: ChildProcess[] = [];
  const runTs = (entry: string, env: NodeJS.ProcessEnv = {}) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, entry)], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    children.push(child);
    return child;
  };
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const child of children) if (child.exitCode === null) child.kill(signal);
  };
  // The terminal's Ctrl-C reaches the whole process group; forwarding covers `kill <pid>` too.
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  const server = runTs('apps/server/src/main.ts');
  server.on('exit', (code, signal) => {
    stop('SIGTERM');
    process.exitCode = code ?? (signal && !stopping ? 1 : 0);
  });

  // The simulated cabinets are separate processes, like real machines on the floor: they keep their
  // credit meters when the server restarts and reconnect to it.
  if (process.env.DEMO_CABINETS !== 'false' && (await waitForServer(port)) && !stopping) {
    runTs('apps/cabinet/src/main.ts', {
      AGENT_URL: `ws://127.0.0.1:${port}/ws/agent`,
      CABINET_KEYS_FILE: path.join(dataDir, 'machine-keys.json'),
    });
  }
}
