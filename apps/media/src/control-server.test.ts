/** The control API answers each endpoint at the path the server's client builds with mediaPath. */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_SECRET_HEADER, mediaPath, type MediaStats } from '@reel/protocol';
import { createControlServer, type MediaBackendApi } from './control-server.js';

const SECRET = 'control-secret';
const calls: unknown[][] = [];
const backend: MediaBackendApi = {
  createIngest: async (machineId) => {
    calls.push(['createIngest', machineId]);
    return {
      machineId,
      host: '127.0.0.1',
      videoPort: 1,
      audioPort: 2,
      videoSsrc: 3,
      audioSsrc: 4,
      videoPayloadType: 96,
      audioPayloadType: 111,
      backend: 'werift',
    };
  },
  deleteIngest: (machineId) => (calls.push(['deleteIngest', machineId]), machineId === 5),
  createViewer: async (grant, machineId, offerSdp) => {
    calls.push(['createViewer', grant, machineId, offerSdp]);
    return { viewerId: 'v 1', kind: 'answer', sdp: 'answer', backend: 'werift' };
  },
  answerViewer: async (viewerId, answerSdp) => void calls.push(['answerViewer', viewerId, answerSdp]),
  deleteViewer: (viewerId, reason) => (calls.push(['deleteViewer', viewerId, reason]), true),
  stats: (): MediaStats => ({ backend: 'werift', uptimeMs: 1, machines: [], viewers: [], closedViewers: {} }),
};

const server = createControlServer(backend, SECRET);
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const call = (method: string, path: string, body?: unknown, secret = SECRET) =>
  fetch(base + path, {
    method,
    headers: { [MEDIA_SECRET_HEADER]: secret, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe('media control server', () => {
  it('serves every endpoint at its mediaPath', async () => {
    expect((await call('GET', mediaPath('Health'), undefined, '')).status).toBe(200);
    expect((await call('GET', mediaPath('Stats'), undefined, 'wrong')).status).toBe(401);
    expect((await call('POST', mediaPath('Ingests'), { machineId: 5 })).status).toBe(200);
    expect((await call('DELETE', mediaPath('Ingest', { machineId: 5 }))).status).toBe(204);
    expect((await call('DELETE', mediaPath('Ingest', { machineId: 6 }))).status).toBe(404);
    expect(
      (await call('POST', mediaPath('Viewers'), { grant: 'g', machineId: 5, offerSdp: 'o' })).status,
    ).toBe(201);
    expect((await call('PATCH', mediaPath('Viewer', { viewerId: 'v 1' }), { answerSdp: 'a' })).status).toBe(
      204,
    );
    expect((await call('DELETE', `${mediaPath('Viewer', { viewerId: 'v 1' })}?reason=pagehide`)).status).toBe(
      204,
    );
    expect(await (await call('GET', mediaPath('Stats'))).json()).toMatchObject({ backend: 'werift' });
    expect(calls).toEqual([
      ['createIngest', 5],
      ['deleteIngest', 5],
      ['deleteIngest', 6],
      ['createViewer', 'g', 5, 'o'],
      ['answerViewer', 'v 1', 'a'],
      ['deleteViewer', 'v 1', 'pagehide'],
    ]);
  });

  it('answers 400 for a bad body and 404 for other paths and methods', async () => {
    expect((await call('POST', mediaPath('Ingests'), { machineId: 'x' })).status).toBe(400);
    expect((await call('GET', mediaPath('Ingests'))).status).toBe(404);
    expect((await call('GET', '/nope')).status).toBe(404);
  });
});
