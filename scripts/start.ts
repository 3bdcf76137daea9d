/**
 * `npm start`: builds the web app when its sources changed, then runs the server (which starts the
 * embedded PostgreSQL, migrates, seeds demo data and runs the media process) and the simulated
 * cabinets, and keeps them running: a crashed process is restarted with backoff, the others
 * reconnect. An `npm start` left over on the same data folder (e.g. after a kill -9) is stopped
 * first. Ctrl-C stops everything within seconds; the data under ./data (DATA_DIR) stays.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { CANNOT_START_EXIT_CODE, commandLineOf, isAlive, stopProcess } from '@reel/process';
import { ensurePatchedJanus } from '../apps/media/src/janus/janus-build.js';
import { SupervisedProcess } from './supervised-process.js';
import { buildWeb, webBuildIsStale } from './web-build.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.PORT || 8080);
const dataDir = path.resolve(root, process.env.DATA_DIR || 'data');
const pidFile = path.join(dataDir, 'start.pid');
const log = (line: string) => console.log(`[start] ${line}`);

interface PidRecord {
  supervisor: number;
  children: number[];
}

/** Stops what an earlier `npm start` on this data folder left running (its pids are in start.pid). */
async function stopEarlierStart() {
  if (!fs.existsSync(pidFile)) return;
  let record: PidRecord;
  try {
    record = JSON.parse(fs.readFileSync(pidFile, 'utf8')) as PidRecord;
  } catch {
    return;
  }
  const ours = (pid: number, marker: string) => pid !== process.pid && isAlive(pid) && commandLineOf(pid).includes(marker);
  const stale = [
    ...(ours(record.supervisor, 'start.ts') ? [record.supervisor] : []),
    ...record.children.filter((pid) => ours(pid, 'main.ts')),
  ];
  if (!stale.length) return;
  log(`stopping processes of an earlier npm start on ${dataDir} (pids ${stale.join(', ')})`);
  await Promise.all(stale.map((pid) => stopProcess(pid, 'SIGTERM', 15_000)));
}

const processes: SupervisedProcess[] = [];
function recordPids() {
  const record: PidRecord = { supervisor: process.pid, children: processes.map((p) => p.pid).filter((pid): pid is number => pid !== undefined) };
  fs.writeFileSync(pidFile, JSON.stringify(record));
}

let stopping = false;
async function stopAll(exitCode: number) {
  if (stopping) return;
  stopping = true;
  // Cabinets first, so they do not see the server vanish under a spin.
  for (const p of [...processes].reverse()) await p.stop();
  fs.rmSync(pidFile, { force: true });
  process.exit(exitCode);
}
// The terminal's Ctrl-C reaches the whole process group; these cover `kill <pid>` too.
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

function supervise(name: string, entry: string, env: NodeJS.ProcessEnv = {}) {
  const child = new SupervisedProcess({
    name,
    entry: path.join(root, entry),
    cwd: root,
    env,
    log,
    // The process printed why; nothing will get better by restarting it.
    onCannotStart: () => void stopAll(CANNOT_START_EXIT_CODE),
    onStarted: recordPids,
  });
  processes.push(child);
  child.start();
  return child;
}

async function serverAnswers(): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/check`)).ok;
  } catch {
    return false;
  }
}

if (webBuildIsStale()) buildWeb();
// MEDIA_BACKEND=janus: the media process runs the NACK-fixed Janus when it can be built.
if (process.env.MEDIA_BACKEND === 'janus') await ensurePatchedJanus(log);
fs.mkdirSync(dataDir, { recursive: true });
await stopEarlierStart();
supervise('server', 'apps/server/src/main.ts');

// The simulated cabinets are separate processes, like real machines on the floor: they keep their
// credit meters when the server restarts and reconnect to it.
if (process.env.DEMO_CABINETS !== 'false') {
  while (!stopping && !(await serverAnswers())) await sleep(250);
  if (!stopping) {
    supervise('cabinets', 'apps/cabinet/src/main.ts', {
      AGENT_URL: `ws://127.0.0.1:${port}/ws/agent`,
      CABINET_KEYS_FILE: path.join(dataDir, 'machine-keys.json'),
    });
  }
}
