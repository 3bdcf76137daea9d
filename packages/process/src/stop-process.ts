/** Stopping a process by pid: a polite signal, a wait, then SIGKILL. */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The command line of a running process (Linux /proc), '' when it is gone or unreadable. */
export function commandLineOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Sends `signal`, waits up to `graceMs` for the process to go, then kills it. True if it is gone. */
export async function stopProcess(pid: number, signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000): Promise<boolean> {
  if (!isAlive(pid)) return true;
  try {
    process.kill(pid, signal);
  } catch {
    return !isAlive(pid);
  }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await sleep(100);
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
  await sleep(200);
  return !isAlive(pid);
}
