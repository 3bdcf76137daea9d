/**
 * Fastify plugin for live video: WHEP-style routes the browser calls with a grant, proxied to
 * the media process over loopback.
 *
 *   POST   /api/media/whep/:machineId                 body: SDP offer (application/sdp), Authorization: Bearer <grant>
 *          → 201, Location: /api/media/whep/:machineId/:viewerId, body: SDP; refusals answer the
 *            catalogue's code (40303 grant, 40000 bad SDP, 40400 no such video, 70000 media down)
 *            with the media side's reason in Params.reason
 *            (X-Sdp-Kind: answer for werift; offer for Janus, which the browser answers with PATCH)
 *   PATCH  /api/media/whep/:machineId/:viewerId       body: SDP answer (Janus only) → 204
 *   DELETE /api/media/whep/:machineId/:viewerId       → 204 (leave)
 *   POST   /api/media/whep/:machineId/:viewerId/close → 204 (pagehide beacon: sendBeacon cannot DELETE)
 *
 * The viewer id is 128 random bits known only to the browser that created it, so the close
 * routes need no other credential.
 */
import type { FastifyPluginAsync } from 'fastify';
// Brings in the route schema's `hide` option (the routes stay out of the OpenAPI document).
import type {} from '@fastify/swagger';
import { Code, messageFor } from '@reel/protocol';
import { errorBody } from '../../lib/errors.js';
import { PUBLIC } from '../../lib/route-access.js';
import { MediaControlError, type MediaClient } from './media-client.js';

/** Who answers the browser's WHEP calls: the local media process, or in a cluster the owner's (over the bus). */
export type ViewerGateway = Pick<MediaClient, 'createViewer' | 'answerViewer' | 'deleteViewer'>;

interface MediaPluginOptions {
  viewers: ViewerGateway;
  /** Route prefix (default /api/media). */
  prefix?: string;
}

const MAX_SDP_BYTES = 20_000;

/**
 * A refused WHEP call answers like every other 4xx: the catalogue code and its text, with the
 * media side's own reason (`expired`, `bad_signature`, `no_ingest`...) in `Params.reason`.
 */
function refusal(status: number, reason: string) {
  const code =
    status === 401 || status === 403
      ? Code.VideoGrantRefused
      : status === 404
        ? Code.NotFound
        : Code.InvalidRequest;
  return errorBody(code, messageFor(code) ?? '', { reason });
}
const VIEWER_ID = /^[A-Za-z0-9_-]{10,64}$/;
/** No player token: a video grant (the offer) or the viewer id (the others) is the credential, checked here. */
const noPlayerToken = { config: { roles: PUBLIC } };

export const mediaPlugin: FastifyPluginAsync<MediaPluginOptions> = async (app, opts) => {
  const { viewers } = opts;
  const base = opts.prefix ?? '/api/media';
  app.addContentTypeParser(
    ['application/sdp', 'text/plain'],
    { parseAs: 'string', bodyLimit: MAX_SDP_BYTES },
    (_req, body, done) => done(null, body),
  );

  const fail = (err: unknown) => {
    if (err instanceof MediaControlError && err.status < 500)
      return { status: err.status, body: refusal(err.status, err.code) };
    // The media process (or, in a cluster, the session owner's) did not answer: the spec's 70000.
    return { status: 502, body: errorBody(Code.PipelineFailed, messageFor(Code.PipelineFailed) ?? '') };
  };

  app.post<{ Params: { machineId: string }; Body: string }>(
    `${base}/whep/:machineId`,
    { ...noPlayerToken, schema: { hide: true } },
    async (req, reply) => {
      const machineId = Number(req.params.machineId);
      const auth = req.headers.authorization ?? '';
      const grant = auth.startsWith('Bearer ') ? auth.slice(7) : '';
      if (!Number.isInteger(machineId) || !grant) return reply.code(401).send(refusal(401, 'grant_required'));
      if (typeof req.body !== 'string' || !req.body.startsWith('v=0'))
        return reply.code(400).send(refusal(400, 'sdp_required'));
      try {
        const r = await viewers.createViewer(grant, machineId, req.body);
        return reply
          .code(201)
          .header('location', `${base}/whep/${machineId}/${r.viewerId}`)
          .header('x-sdp-kind', r.kind)
          .type('application/sdp')
          .send(r.sdp);
      } catch (err) {
        const { status, body } = fail(err);
        return reply.code(status).send(body);
      }
    },
  );

  app.patch<{ Params: { machineId: string; viewerId: string }; Body: string }>(
    `${base}/whep/:machineId/:viewerId`,
    { ...noPlayerToken, schema: { hide: true } },
    async (req, reply) => {
      if (!VIEWER_ID.test(req.params.viewerId) || typeof req.body !== 'string')
        return reply.code(400).send(refusal(400, 'bad_request'));
      try {
        await viewers.answerViewer(req.params.viewerId, req.body);
        return reply.code(204).send();
      } catch (err) {
        const { status, body } = fail(err);
        return reply.code(status).send(body);
      }
    },
  );

  const close = async (viewerId: string, reason: 'leave' | 'pagehide') => {
    if (!VIEWER_ID.test(viewerId)) return 400;
    try {
      await viewers.deleteViewer(viewerId, reason);
      return 204;
    } catch (err) {
      return err instanceof MediaControlError && err.status === 404 ? 404 : 502;
    }
  };
  app.delete<{ Params: { machineId: string; viewerId: string } }>(
    `${base}/whep/:machineId/:viewerId`,
    { ...noPlayerToken, schema: { hide: true } },
    async (req, reply) => reply.code(await close(req.params.viewerId, 'leave')).send(),
  );
  app.post<{ Params: { machineId: string; viewerId: string } }>(
    `${base}/whep/:machineId/:viewerId/close`,
    { ...noPlayerToken, schema: { hide: true } },
    async (req, reply) => reply.code(await close(req.params.viewerId, 'pagehide')).send(),
  );
};
