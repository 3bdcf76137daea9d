/**
 * The product as players reach it in a deployment: behind HAProxy terminating TLS and speaking
 * HTTP/2 (apps/server/src/cluster/launch/haproxy.ts, the cluster's own front). Browsers use HTTP/2
 * only over TLS; over plain HTTP/1.1 a page's module files each open a cold TCP connection, and
 * Lighthouse's simulated mobile network (150 ms round trips) charges every one of them.
 *
 * The certificate is self-signed, made here with openssl for 127.0.0.1: the browser under test is
 * told to accept it (`--ignore-certificate-errors`), and so is the readiness check.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { spawnTied, stopChild } from '@reel/process';
import { haproxyConfig } from '../../apps/server/src/cluster/launch/haproxy.js';

export interface TlsFront {
  url: string;
  stop(): Promise<void>;
}

/** Why a TLS front cannot be started here, or null. */
export function tlsFrontMissing(): string | null {
  if (spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status !== 0) return 'haproxy is not installed (apt-get install haproxy)';
  if (spawnSync('openssl', ['version'], { stdio: 'ignore' }).status !== 0) return 'openssl is not installed (apt-get install openssl)';
  return null;
}

function selfSignedPem(dir: string): string {
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  const made = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr.toString().trim()}`);
  const pem = path.join(dir, 'front.pem');
  fs.writeFileSync(pem, fs.readFileSync(cert, 'utf8') + fs.readFileSync(key, 'utf8'), { mode: 0o600 });
  return pem;
}

function answers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = https.get(url, { rejectUnauthorized: false, timeout: 2000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('error', () => resolve(false));
    request.on('timeout', () => request.destroy());
  });
}

/** Starts HAProxy on `port` with TLS and HTTP/2 in front of the server on `backendPort` (127.0.0.1). */
export async function startTlsFront(port: number, backendPort: number): Promise<TlsFront> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reel-tls-front-'));
  const config = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(config, haproxyConfig({ port, tlsPem: selfSignedPem(dir), servers: [{ id: 's1', port: backendPort }] }));
  // Tied to this process: a bench killed with -9 leaves no HAProxy holding the port.
  const haproxy = spawnTied('haproxy', ['-db', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  haproxy.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `https://127.0.0.1:${port}`;
  const stop = async () => {
    await stopChild(haproxy);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 20_000;
  while (!(await answers(`${url}/check`))) {
    if (haproxy.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`HAProxy's TLS front did not answer: ${stderr.trim() || `exit ${haproxy.exitCode}`}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, stop };
}
