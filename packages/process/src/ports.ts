/** Finding a free loopback port and waiting for a service to answer: what starters and tests share. */
import dgram from 'node:dgram';
import net from 'node:net';

/** A port nothing listens on right now (the kernel's pick), TCP by default. */
export async function freePort(kind: 'tcp' | 'udp' = 'tcp'): Promise<number> {
  if (kind === 'udp') {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const { port } = socket.address();
    socket.close();
    return port;
  }
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
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
