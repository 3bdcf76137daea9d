/**
 * The fault rig: a network namespace of the test's own making, joined to the host by a veth pair,
 * with nftables dropping packets inside it. The browser runs in the namespace (Chromium started
 * through `ip netns exec`), the product on the host, so every packet between them crosses the
 * veth and the namespace's nftables rules. Nothing of this is in the product.
 *
 * Loss: `numgen random mod 100 < N drop` on UDP (the media) in both directions; TCP (page,
 * WebSocket) is left alone, as a real lossy link would mostly show up as delay there.
 * Blackout: every packet on the veth is dropped, both directions, for the given time.
 * Delay/jitter: netem is not available on these machines; relay.ts is a user-space UDP relay for
 * that, and `relayOnly` makes it the only UDP path between the namespace and the host.
 *
 * Needs root (CAP_NET_ADMIN), `ip` and `nft`; `rigUnavailable()` says why not otherwise.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_PATH } from '../chromium.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Rig {
  ns: string;
  /** The host's address as the namespace sees it: where the browser finds the product. */
  hostAddress: string;
  /** A Chromium executable that runs inside the namespace (a wrapper script for Playwright). */
  chromiumPath: string;
  setLoss(percent: number): void;
  blackout(on: boolean): void;
  /**
   * With ports: UDP between the namespace and the host only to/from those host ports (the jitter
   * relay's, e2e/network/relay.ts), everything else dropped, so no direct path bypasses the relay.
   * null: no such rule.
   */
  relayOnly(ports: number[] | null): void;
  /** Packets the namespace's rules dropped so far. */
  dropped(): number;
  close(): void;
}

function run(cmd: string, args: string[], input?: string): string {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'], ...(input ? { input } : {}) });
}

/** Why the rig cannot run here, or null when it can. */
export function rigUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'the fault rig needs root (network namespaces, nftables)';
  const probe = `rlnet-probe-${process.pid}`;
  try {
    run('ip', ['netns', 'add', probe]);
    run('ip', ['netns', 'exec', probe, 'nft', 'list', 'ruleset']);
  } catch (error) {
    return `cannot create a network namespace with nftables (Debian packages iproute2 and nftables; \`npm run bench -- network\` installs them as root): ${String((error as Error).message).split('\n')[0]}`;
  } finally {
    try {
      run('ip', ['netns', 'del', probe]);
    } catch {
      // not created
    }
  }
  return null;
}

/** Builds the namespace `rlnet-<tag>-<pid>`; `close()` removes it (and the veth pair with it). */
export function createRig(tag: string): Rig {
  const ns = `rlnet-${tag}-${process.pid}`;
  const id = (process.pid % 200) + 20;
  const hostIf = `rlh${process.pid % 100000}`;
  const nsIf = `rln${process.pid % 100000}`;
  const hostAddress = `10.231.${id}.1`;
  const nsAddress = `10.231.${id}.2`;
  try {
    run('ip', ['netns', 'del', ns]);
  } catch {
    // none left from an earlier run of this pid
  }
  run('ip', ['netns', 'add', ns]);
  const inNs = (...args: string[]) => run('ip', ['netns', 'exec', ns, ...args]);
  try {
    run('ip', ['link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf]);
    run('ip', ['link', 'set', nsIf, 'netns', ns]);
    run('ip', ['addr', 'add', `${hostAddress}/30`, 'dev', hostIf]);
    run('ip', ['link', 'set', hostIf, 'up']);
    inNs('ip', 'addr', 'add', `${nsAddress}/30`, 'dev', nsIf);
    inNs('ip', 'link', 'set', nsIf, 'up');
    inNs('ip', 'link', 'set', 'lo', 'up');
  } catch (error) {
    removeRig(ns, hostIf);
    throw error;
  }
  const load = (rules: string) => run('ip', ['netns', 'exec', ns, 'nft', '-f', '-'], rules);
  const table = (body: string, input = '', output = '') =>
    `flush ruleset\ntable inet rlnet {\n counter dropped {}\n chain input { type filter hook input priority 0; policy accept; ${input} ${body} }\n chain output { type filter hook output priority 0; policy accept; ${output} ${body} }\n}\n`;
  load(table(''));

  const dir = path.join(root, '.tmp', 'rig');
  mkdirSync(dir, { recursive: true });
  const chromiumPath = path.join(dir, `chromium-${ns}.sh`);
  writeFileSync(chromiumPath, `#!/bin/sh\nexec ip netns exec ${ns} ${CHROMIUM_PATH} "$@"\n`);
  chmodSync(chromiumPath, 0o755);

  let lossPercent = 0;
  let dark = false;
  let relayPorts: number[] | null = null;
  let carried = 0;
  const apply = () => {
    const rule = dark
      ? `iifname "${nsIf}" counter name dropped drop; oifname "${nsIf}" counter name dropped drop;`
      : lossPercent > 0
        ? `meta l4proto udp numgen random mod 100 < ${lossPercent} counter name dropped drop;`
        : '';
    // The counter survives the flush only as a fresh object: read it before replacing the rules.
    carried += readCounter();
    const only = (dir: 'sport' | 'dport') =>
      relayPorts === null
        ? ''
        : relayPorts.length === 0
          ? `ip ${dir === 'sport' ? 'saddr' : 'daddr'} ${hostAddress} meta l4proto udp drop;`
          : `ip ${dir === 'sport' ? 'saddr' : 'daddr'} ${hostAddress} udp ${dir} != { ${relayPorts.join(', ')} } drop;`;
    load(table(rule, only('sport'), only('dport')));
  };
  const readCounter = (): number => {
    try {
      const out = run('ip', ['netns', 'exec', ns, 'nft', 'list', 'counter', 'inet', 'rlnet', 'dropped']);
      return Number(/packets (\d+)/.exec(out)?.[1] ?? 0);
    } catch {
      return 0;
    }
  };

  return {
    ns,
    hostAddress,
    chromiumPath,
    setLoss(percent) {
      lossPercent = Math.max(0, Math.min(100, Math.round(percent)));
      apply();
    },
    blackout(on) {
      dark = on;
      apply();
    },
    relayOnly(ports) {
      relayPorts = ports ? [...ports] : null;
      apply();
    },
    dropped: () => carried + readCounter(),
    close: () => {
      removeRig(ns, hostIf);
      rmSync(chromiumPath, { force: true });
    },
  };
}

function removeRig(ns: string, hostIf: string): void {
  for (const args of [
    ['netns', 'del', ns],
    ['link', 'del', hostIf], // usually gone with its peer in the namespace
  ])
    try {
      run('ip', args);
    } catch {
      // already gone
    }
}
