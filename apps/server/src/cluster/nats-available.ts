/**
 * Whether a NATS server answers (tests and `npm run cluster` use the system one when it runs):
 * `NATS_URL`, else the default port on loopback.
 */
import { spawnSync } from 'node:child_process';
import net from 'node:net';
import { natsUrlFromEnv } from '../config.js';

export const natsUrl = natsUrlFromEnv;

/** Resolves with the reason NATS cannot be used, or null when its INFO line came back. */
export function natsUnavailable(url = natsUrl(), timeoutMs = 1_000): Promise<string | null> {
  const first = new URL(url.split(',')[0]!.trim());
  return new Promise((resolve) => {
    const socket = net.connect({ host: first.hostname, port: Number(first.port || 4222) });
    const done = (reason: string | null) => {
      socket.destroy();
      resolve(reason);
    };
    socket.setTimeout(timeoutMs, () => done(`no NATS answered at ${url} within ${timeoutMs} ms`));
    socket.once('error', (error) => done(`no NATS at ${url} (${error.message})`));
    socket.once('data', (data) => done(data.toString().startsWith('INFO') ? null : `${url} is not a NATS server`));
  });
}

/**
 * Why the cluster tests (NATS, and HAProxy unless `haproxy: false`) cannot run here, or null. Under
 * `npm test`, which starts its own nats-server and installs HAProxy when it can
 * (REEL_CLUSTER_TESTS=required), a missing part is a failure, not a skip: the failover promises must
 * not go untested by accident.
 */
export async function clusterTestsMissing({ haproxy = true } = {}): Promise<string | null> {
  const missing =
    (await natsUnavailable()) ??
    (!haproxy || spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0 ? null : 'haproxy is not installed (apt-get install haproxy)');
  if (missing && process.env.REEL_CLUSTER_TESTS === 'required')
    throw new Error(`the cluster tests must run here (REEL_CLUSTER_TESTS=required), but ${missing}`);
  return missing;
}
