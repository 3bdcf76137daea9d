import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { signGrant } from '@reel/media-control';
import { MediaService, mediaPlugin } from './index.js';

let media: MediaService;
let app: FastifyInstance;

beforeAll(async () => {
  media = new MediaService({ browserIceServers: [{ urls: 'stun:stun.example.org:3478' }] });
  await media.start();
  app = Fastify();
  await app.register(mediaPlugin, { viewers: media.client });
  await app.ready();
}, 30_000);
afterAll(async () => {
  await app?.close();
  await media?.stop();
});

const OFFER = 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n';

describe('media module', () => {
  it('creates loopback ingests with distinct ports', async () => {
    const a = await media.ensureIngest(1);
    const b = await media.ensureIngest(2);
    expect(a.host).toBe('127.0.0.1');
    expect(new Set([a.videoPort, a.audioPort, b.videoPort, b.audioPort]).size).toBe(4);
    expect(await media.ensureIngest(1)).toEqual(a);
  });

  it('issues grants that name the machine and carry the configured ICE servers', () => {
    const g = media.issueGrant(5, 1);
    expect(g.whepUrl).toBe('/api/media/whep/1');
    expect(g.iceServers).toEqual([{ urls: 'stun:stun.example.org:3478' }]);
    expect(Date.parse(g.expiresAt)).toBeGreaterThan(Date.now());
  });

  it('refuses viewers without a valid grant for that machine', async () => {
    const post = (machineId: number, grant: string | null, body = OFFER) =>
      app.inject({
        method: 'POST',
        url: `/api/media/whep/${machineId}`,
        headers: {
          'content-type': 'application/sdp',
          ...(grant ? { authorization: `Bearer ${grant}` } : {}),
        },
        payload: body,
      });
    expect((await post(1, null)).statusCode).toBe(401);
    expect((await post(1, 'not-a-grant')).statusCode).toBe(403);
    const forOther = media.issueGrant(5, 2).grant;
    expect((await post(1, forOther)).statusCode).toBe(403);
    const foreign = signGrant('some-other-secret-0123456789', { playerId: 5, machineId: 1 }).token;
    expect((await post(1, foreign)).statusCode).toBe(403);
    const expired = signGrant(media.supervisor.secret, { playerId: 5, machineId: 1, ttlMs: -1 }).token;
    expect((await post(1, expired)).statusCode).toBe(401);
    expect((await post(1, media.issueGrant(5, 1).grant, 'hello')).statusCode).toBe(400);
    expect((await post(99, media.issueGrant(5, 99).grant)).statusCode).toBe(404);
  });

  it('answers 404 when closing an unknown viewer', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/media/whep/1/AAAAAAAAAAAAAAAAAAAAAA/close' });
    expect(res.statusCode).toBe(404);
  });
});
