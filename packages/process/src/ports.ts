/** Finding a free loopback port and waiting for a service to answer: what starters and tests share. */
import dgram from 'node:dgram';
import fs from 'node:fs';
import net from 'node:net';

/** Ports below the kernel's ephemeral range start here (above the fixed ports of services and tests). */
const LOW_PORT = 10_000;

/** The first port of the kernel's ephemeral range (what `listen(0)` and outgoing connections get). */
function ephemeralLow(): number {
  try {
    return Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 0;
  } catch {
    return 0;
  }
}

/** Binds `port` (0: the kernel's pick) on loopback and lets it go; the port, or null when taken. */
function tryPort(kind: 'tcp' | 'udp', port: number): Promise<number | null> {
  return new Promise((resolve) => {
    if (kind === 'udp') {
      const socket = dgram.createSocket('udp4');
      socket.once('error', () => (socket.close(), resolve(null)));
      socket.bind(port, '127.0.0.1', () => {
        const bound = socket.address().port;
        socket.close(() => resolve(bound));
      });
      return;
    }
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => {
      const bound = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A port nothing listens on right now, TCP by default, picked at random below the kernel's ephemeral
 * range where one fits: a port from that range (the kernel's own pick) could be handed to an outgoing
 * connection before its user binds it, and a cluster test's HAProxy, started a minute after its port
 * was chosen, failed so ("cannot bind socket (Address already in use)", CI 2026-11-28).
 */
export async function freePort(kind: 'tcp' | 'udp' = 'tcp'): Promise<number> {
  const high = ephemeralLow();
  if (high - LOW_PORT >= 1_000) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const port = await tryPort(kind, LOW_PORT + Math.floor(Math.random() * (high - LOW_PORT)));
      if (port !== null) return port;
    }
  }
  const port = await tryPort(kind, 0);
  if (port === null) throw new Error(`no free ${kind} port on 127.0.0.1`);
  return port;
}

/** Polls `check` every `intervalMs` until it answers true (true) or the time is up (false). */
export async function pollUntil(check: () => Promise<boolean>, timeoutMs: number, intervalMs = 500): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return true;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return false;
}

/** True once `url` answers 2xx within `timeoutMs`. */
export function waitForUrl(url: string, timeoutMs: number): Promise<boolean> {
  return pollUntil(async () => (await fetch(url)).ok, timeoutMs);
}
