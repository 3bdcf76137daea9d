/** Site-root routes: the IP check, runtime settings for the web app, and the built web app itself. */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CheckResponse, Code, RootPath, WsPath } from '@reel/protocol';
import { declareLibraryRoutes, PUBLIC } from '../../lib/route-access.js';
import type { GeoService } from '../geo/geo.js';
import { readSettings } from '../settings/runtime-settings.js';
import { checkPreloadLink, shellFor } from './page-shell.js';

interface SiteRouteDeps {
  geo: GeoService;
  config: { settingsFile: string; webDistDir: string; ipCheck: { enabled: boolean } };
  /** In a cluster: this server's id and what it owns now, which /check reports. */
  server?: { id: string; owns(): { shards: number; sessions: number; relayed: number } };
}

/** Everything here is open: the page, its settings and the country check come before any sign-in. */
const open = { config: { roles: PUBLIC } };

export const siteRoutes: FastifyPluginAsyncTypebox<SiteRouteDeps> = async (app, deps) => {
  app.get(RootPath.check, { ...open, schema: { tags: ['site'], response: { 200: CheckResponse } } }, async (request) => {
    const country = deps.geo.countryOf(request.ip);
    const allowed = deps.geo.isAllowed(request.ip);
    const server = deps.server ? { server: deps.server.id, ...deps.server.owns() } : {};
    return { status: allowed ? 1 : 0, code: allowed ? 1 : 0, ip: request.ip, country, ...server };
  });

  app.get(RootPath.settings, { ...open, schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    // The spec's IP_CHEKCING flag reports the server's own policy (IP_CHECK); an operator file
    // cannot set it apart from what /check and /login enforce (docs/spec-decisions.md).
    return { ...readSettings(deps.config.settingsFile), IP_CHEKCING: deps.config.ipCheck.enabled };
  });

  const dist = deps.config.webDistDir;
  if (fs.existsSync(path.join(dist, 'index.html'))) {
    const assets = path.join(dist, 'assets') + path.sep;
    // One route per file of the build, all open like the page itself.
    declareLibraryRoutes(app, PUBLIC);
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: ['index.html'],
      // The build writes file.br and file.gz beside its text files (apps/web/vite.config.ts).
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, file) => {
        // assets/ holds only content-hashed build output: a changed file has a new name. Everything
        // else (index.html, favicon, info pages) is asked again each time.
        res.setHeader('cache-control', file.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache');
        res.setHeader('vary', 'accept-encoding');
      },
    });
    // Client-side routes (/lobby, /game/1/x, ...) all load the single-page app; API-like and file
    // paths that matched nothing stay a coded 404.
    const apiLike = ['/api/', '/ws/', RootPath.check, RootPath.settings];
    app.get('/*', { ...open, schema: { hide: true } }, (request, reply) => {
      const url = request.url.split('?')[0]!;
      if (apiLike.some((p) => url.startsWith(p)) || path.extname(url)) {
        return reply.status(404).send({ status: false, code: Code.NotFound, ErrorMessage: 'Not found' });
      }
      // The web app asks /check only while the country policy is on; a preload it never uses
      // would be a wasted request and a console warning.
      const link = deps.config.ipCheck.enabled ? checkPreloadLink(readSettings(deps.config.settingsFile).API_URL) : null;
      if (link) reply.header('link', link);
      return reply.type('text/html').header('cache-control', 'no-cache').sendFile(shellFor(dist, url));
    });
  } else {
    app.get('/', { ...open, schema: { hide: true } }, async () => ({
      status: true,
      message: 'The web app is not built yet: run npm run build (npm start does it for you).',
      docs: RootPath.docs,
      websockets: WsPath,
    }));
  }
};
