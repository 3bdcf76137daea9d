/**
 * The bench's deployed front (e2e/bench/tls-front.ts, built from the cluster's haproxyConfig):
 * HAProxy really terminates TLS, offers HTTP/2 by ALPN, and tells the server behind it that the
 * browser used https. The web bench judges Lighthouse through this front, so it must be what it says.
 */
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@reel/process';
import { startTlsFront, tlsFrontMissing, type TlsFront } from '../e2e/bench/tls-front.js';

const skipReason = tlsFrontMissing();
if (skipReason) console.log(`[tls-front] skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)('the TLS and HTTP/2 front', () => {
  let backend: http.Server;
  let front: TlsFront;

  beforeAll(async () => {
    // Answers /check (HAProxy's health check) and echoes the forwarded protocol.
    backend = http.createServer((request, response) => response.end(JSON.stringify({ proto: request.headers['x-forwarded-proto'] ?? null })));
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
    front = await startTlsFront(await freePort('tcp'), (backend.address() as AddressInfo).port);
  });

  afterAll(async () => {
    await front?.stop();
    backend?.close();
  });

  it('negotiates h2 over TLS and forwards the protocol the browser used', async () => {
    const session = http2.connect(front.url, { rejectUnauthorized: false });
    try {
      const body = await new Promise<string>((resolve, reject) => {
        const stream = session.request({ ':path': '/check' });
        let text = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => (text += chunk));
        stream.on('end', () => resolve(text));
        stream.on('error', reject);
      });
      expect(session.alpnProtocol).toBe('h2');
      expect(JSON.parse(body)).toEqual({ proto: 'https' });
    } finally {
      session.close();
    }
  });
});
