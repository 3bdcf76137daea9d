import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { signGrant } from '@reel/media-control';
import { Code, messageFor } from '@reel/protocol';
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
    // Every refusal carries a catalogue code like any other 4xx, the media side's reason in Params.
    const refused = async (response: Promise<{ statusCode: number; json: () => unknown }>, status: number, code: number, reason: string) => {
      const answer = await response;
      expect(answer.statusCode).toBe(status);
      expect(answer.json()).toMatchObject({ status: false, code, ErrorMessage: messageFor(code), Params: { reason } });
    };
    await refused(post(1, null), 401, Code.VideoGrantRefused, 'grant_required');
    await refused(post(1, 'not-a-grant'), 403, Code.VideoGrantRefused, 'malformed');
    const forOther = media.issueGrant(5, 2).grant;
    await refused(post(1, forOther), 403, Code.VideoGrantRefused, 'wrong_machine');
    const foreign = signGrant('some-other-secret-0123456789', { playerId: 5, machineId: 1 }).token;
    await refused(post(1, foreign), 403, Code.VideoGrantRefused, 'bad_signature');
    const expired = signGrant(media.supervisor.secret, { playerId: 5, machineId: 1, ttlMs: -1 }).token;
    await refused(post(1, expired), 401, Code.VideoGrantRefused, 'expired');
    await refused(post(1, media.issueGrant(5, 1).grant, 'hello'), 400, Code.InvalidRequest, 'sdp_required');
    await refused(post(99, media.issueGrant(5, 99).grant), 404, Code.NotFound, 'no_ingest');
    const patch = await app.inject({ method: 'PATCH', url: '/api/media/whep/1/bad id', payload: 'v=0', headers: { 'content-type': 'application/sdp' } });
    expect(patch.statusCode).toBe(400);
    expect(patch.json()).toMatchObject({ code: Code.InvalidRequest, Params: { reason: 'bad_request' } });
  });

  it('answers 404 when closing an unknown viewer', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/media/whep/1/AAAAAAAAAAAAAAAAAAAAAA/close' });
    expect(res.statusCode).toBe(404);
  });
});
