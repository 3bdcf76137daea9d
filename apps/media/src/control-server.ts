/**
 * HTTP control API on 127.0.0.1 for the API server (JSON; every call carries x-media-secret):
 *   GET    /health
 *   POST   /ingests {machineId}                 → IngestInfo (RTP ports for the cabinet)
 *   DELETE /ingests/:machineId
 *   POST   /viewers {grant, machineId, offerSdp} → CreateViewerResponse
 *   PATCH  /viewers/:viewerId {answerSdp}        (Janus backend: the browser's answer)
 *   DELETE /viewers/:viewerId?reason=leave|pagehide
 *   GET    /stats                                → MediaStats
 */
import http from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import {
  MEDIA_SECRET_HEADER,
  matchMediaPath,
  type CreateViewerResponse,
  type IngestInfo,
  type MediaStats,
  type ViewerCloseReason,
} from '@reel/protocol';
import { MediaError } from './media-error.js';

/** What a backend (werift forwarder or Janus adapter) offers the control API. */
export interface MediaBackendApi {
  createIngest(machineId: number): Promise<IngestInfo>;
  deleteIngest(machineId: number): boolean | Promise<boolean>;
  createViewer(grant: string, machineId: number, offerSdp: string): Promise<CreateViewerResponse>;
  answerViewer?(viewerId: string, answerSdp: string): Promise<void>;
  deleteViewer(viewerId: string, reason?: ViewerCloseReason): boolean | Promise<boolean>;
  stats(): MediaStats | Promise<MediaStats>;
}

const MAX_BODY_BYTES = 64 * 1024;
const CLOSE_REASONS: readonly string[] = ['leave', 'pagehide', 'dead', 'replaced'];

function readBody(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new MediaError(413, 'bad_request'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (chunks.length === 0) return resolve({});
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new MediaError(400, 'bad_request'));
      }
    });
    req.on('error', reject);
  });
}

export function createControlServer(backend: MediaBackendApi, secret: string): http.Server {
  const secretBuf = Buffer.from(secret);
  const authorised = (req: http.IncomingMessage) => {
    const given = Buffer.from(String(req.headers[MEDIA_SECRET_HEADER] ?? ''));
    return given.length === secretBuf.length && timingSafeEqual(given, secretBuf);
  };
  return http.createServer(async (req, res) => {
    const send = (status: number, body?: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(body === undefined ? '' : JSON.stringify(body));
    };
    try {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const route = matchMediaPath(url.pathname);
      const method = req.method;
      if (method === 'GET' && route?.kind === 'Health') return send(200, { ok: true });
      if (!authorised(req)) return send(401, { error: 'unauthorised' });
      switch (route?.kind) {
        case 'Ingests':
          if (method !== 'POST') break;
          {
            const body = (await readBody(req)) as { machineId?: unknown };
            if (!Number.isInteger(body.machineId)) throw new MediaError(400, 'bad_request');
            return send(200, await backend.createIngest(body.machineId as number));
          }
        case 'Ingest':
          if (method !== 'DELETE') break;
          return send((await backend.deleteIngest(Number(route.params.machineId))) ? 204 : 404);
        case 'Viewers':
          if (method !== 'POST') break;
          {
            const body = (await readBody(req)) as {
              grant?: unknown;
              machineId?: unknown;
              offerSdp?: unknown;
            };
            if (
              typeof body.grant !== 'string' ||
              !Number.isInteger(body.machineId) ||
              typeof body.offerSdp !== 'string'
            )
              throw new MediaError(400, 'bad_request');
            return send(201, await backend.createViewer(body.grant, body.machineId as number, body.offerSdp));
          }
        case 'Viewer': {
          const viewerId = route.params.viewerId!;
          if (method === 'PATCH' && backend.answerViewer) {
            const body = (await readBody(req)) as { answerSdp?: unknown };
            if (typeof body.answerSdp !== 'string') throw new MediaError(400, 'bad_request');
            await backend.answerViewer(viewerId, body.answerSdp);
            return send(204);
          }
          if (method !== 'DELETE') break;
          const reason = url.searchParams.get('reason') ?? 'leave';
          const closeReason = (CLOSE_REASONS.includes(reason) ? reason : 'leave') as ViewerCloseReason;
          return send((await backend.deleteViewer(viewerId, closeReason)) ? 204 : 404);
        }
        case 'Stats':
          if (method === 'GET') return send(200, await backend.stats());
          break;
      }
      send(404, { error: 'not_found' });
    } catch (err) {
      if (err instanceof MediaError) return send(err.status, { error: err.code });
      send(500, { error: 'internal' });
    }
  });
}
