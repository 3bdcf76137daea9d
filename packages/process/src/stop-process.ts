/** Stopping a process (by pid, or a child by its handle): a polite signal, a wait, then SIGKILL. */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Whether the process runs. A zombie (exited, not yet reaped by its new parent) does not. */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    // /proc/<pid>/stat: "pid (comm) state ..."; comm may hold spaces and parentheses.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    // No /proc (not Linux) but kill(0) found it; or it vanished meanwhile.
    return fs.existsSync('/proc/self') ? false : true;
  }
}

/** Waits until the process is gone (or a zombie); true if it went within `timeoutMs`. */
export async function waitGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
  return true;
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

/**
 * Stops a child of this process: `signal`, then SIGKILL if it is still there after `graceMs`.
 * Resolves when it has exited (at once when it already had).
 */
export function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}
