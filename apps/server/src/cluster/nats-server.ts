/**
 * A nats-server of our own (Debian's `nats-server`) on a loopback port, tied to this process so a
 * kill -9 of its starter leaves none behind: what `npm test`, `npm run cluster` and the cluster bench
 * run when no NATS_URL is given.
 */
import type { ChildProcess, StdioOptions } from 'node:child_process';
import { freePort, pollUntil, spawnTied } from '@reel/process';
import { natsUnavailable } from './nats-available.js';

export async function startNatsServer(port: number, stdio: StdioOptions = 'ignore', timeoutMs = 10_000): Promise<{ url: string; child: ChildProcess }> {
  const url = `nats://127.0.0.1:${port}`;
  const child = spawnTied('nats-server', ['-a', '127.0.0.1', '-p', String(port)], { stdio });
  const exited = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(error.message));
    child.once('exit', (code, signal) => resolve(`exited (${signal ?? code})`));
  });
  let early: string | null = null;
  void exited.then((why) => (early = why));
  const up = await pollUntil(async () => early === null && (await natsUnavailable(url, 500)) === null, timeoutMs, 100);
  if (!up) {
    child.kill('SIGKILL');
    throw new Error(`nats-server on port ${port} did not come up: ${early ?? (await natsUnavailable(url))}`);
  }
  return { url, child };
}

/** The benches' NATS: NATS_URL, else the one on 127.0.0.1:4222 when it answers, else one of our own (`child`). */
export async function natsForBench(): Promise<{ url: string; child: ChildProcess | null }> {
  const url = process.env.NATS_URL || 'nats://127.0.0.1:4222';
  if ((await natsUnavailable(url)) === null) return { url, child: null };
  return startNatsServer(await freePort());
}
