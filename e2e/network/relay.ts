/**
 * Delay and jitter for the fault rig without netem: a user-space UDP relay (relay-process.ts, its
 * own process) between the browser in the rig's namespace and the media server on the host. Test
 * code only; the product is not told about it.
 *
 * How the browser ends up on it: the test page hands every remote description to
 * `rewriteSdp` (see `RELAY_REMOTE_SDP`) before `setRemoteDescription`. Each UDP host candidate of
 * the media server on the rig's host address is replaced by a relay port on that address that
 * forwards to it; every other candidate is removed. The browser's checks then reach the media
 * server from the relay's upstream socket, which the server takes as a peer-reflexive candidate
 * (werift and Janus both do), and answers go back through the relay. The rig's `relayOnly` drops
 * any other UDP between the namespace and the host, so no direct path can be picked.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RelayConfig, RelayReply, RelayRequest, RelayStats } from './relay-process.js';

export type { RelayConfig, RelayStats } from './relay-process.js';

const here = path.dirname(fileURLToPath(import.meta.url));
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

export interface Relay {
  config: RelayConfig;
  /** Opens a relay port on `listenHost` forwarding to the target; resolves to the port. */
  forward(listenHost: string, targetHost: string, targetPort: number): Promise<number>;
  /** Counts since the last reset. */
  stats(reset?: boolean): Promise<RelayStats>;
  /** Relay ports opened so far (for the rig's relay-only rule). */
  ports(): number[];
  /** Rewrites a remote description's candidates to relay ports (see the file comment). */
  rewriteSdp(sdp: string, hostAddress: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Page init script: every remote description goes through `window.__relaySdp` (exposed by the bench
 * with Playwright's `exposeFunction`) before Chromium sees it.
 */
export const RELAY_REMOTE_SDP = `(() => {
  const native = RTCPeerConnection.prototype.setRemoteDescription;
  RTCPeerConnection.prototype.setRemoteDescription = async function (desc, ...rest) {
    if (desc && desc.sdp && window.__relaySdp) desc = { type: desc.type, sdp: await window.__relaySdp(desc.sdp) };
    return native.call(this, desc, ...rest);
  };
})();`;

export async function startRelay(config: RelayConfig): Promise<Relay> {
  const child: ChildProcess = fork(path.join(here, 'relay-process.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, RELAY_CONFIG: JSON.stringify(config) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 1;
  const pending = new Map<number, (r: RelayReply) => void>();
  const ready = new Promise<void>((resolve, reject) => {
    pending.set(0, () => resolve());
    child.once('exit', (code) => reject(new Error(`relay process exited (${code})`)));
  });
  child.on('message', (r: RelayReply) => {
    pending.get(r.id)?.(r);
    pending.delete(r.id);
  });
  const ask = (req: WithoutId<RelayRequest>): Promise<RelayReply> =>
    new Promise((resolve, reject) => {
      if (!child.connected) return reject(new Error('relay process gone'));
      const id = nextId++;
      pending.set(id, (r) => (r.error ? reject(new Error(r.error)) : resolve(r)));
      child.send({ ...req, id });
    });
  await ready;
  const opened = new Map<string, number>();
  const relay: Relay = {
    config,
    async forward(listenHost, targetHost, targetPort) {
      const key = `${listenHost}>${targetHost}:${targetPort}`;
      const known = opened.get(key);
      if (known) return known;
      const { port } = await ask({ type: 'forward', listenHost, targetHost, targetPort });
      opened.set(key, port!);
      return port!;
    },
    async stats(reset = false) {
      return (await ask({ type: 'stats', reset })).stats!;
    },
    ports: () => [...opened.values()],
    async rewriteSdp(sdp, hostAddress) {
      const lines = sdp.split(/\r?\n/);
      const out: string[] = [];
      for (const line of lines) {
        const m = /^a=candidate:(\S+) (\d+) (\S+) (\d+) (\S+) (\d+) typ (\S+)(.*)$/.exec(line);
        if (!m) {
          out.push(line);
          continue;
        }
        const [, foundation, component, transport, priority, ip, port, type, rest] = m;
        if (transport!.toLowerCase() !== 'udp' || type !== 'host' || ip !== hostAddress) continue;
        const relayPort = await relay.forward(hostAddress, ip, Number(port));
        out.push(`a=candidate:${foundation} ${component} ${transport} ${priority} ${hostAddress} ${relayPort} typ host${rest}`);
      }
      return out.join('\r\n');
    },
    async close() {
      if (child.exitCode !== null || !child.connected) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      await ask({ type: 'close' }).catch(() => undefined);
      const t = setTimeout(() => child.kill('SIGKILL'), 2000);
      await gone;
      clearTimeout(t);
    },
  };
  return relay;
}
