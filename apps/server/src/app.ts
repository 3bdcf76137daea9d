/**
 * Builds the HTTP/WebSocket server. Plugins load in a visible order: authorization first (it must
 * see every route: each declares its roles, plugins/auth.ts), then security and docs, then the
 * feature routes.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { SERVER_HEADER, TEXT_FORMAT, isText } from '@reel/protocol';
import type { AppContext } from './context.js';
import { clientErrorHandler, frameworkErrors, installErrorHandler } from './plugins/errors.js';
import { authPlugin } from './plugins/auth.js';
import { corsPlugin } from './plugins/cors.js';
import { wsOriginPlugin } from './plugins/ws-origin.js';
import { isAbortedDownload } from './lib/aborted-download.js';
import { redactUrl } from './lib/redact.js';
import { declareLibraryRoutes, PUBLIC } from './lib/route-access.js';
import { checkJsonBody, createAjv } from './lib/validation.js';
import { credentialRateLimitPlugin } from './modules/auth/credentials.js';
import { listenForRevocations } from './modules/auth/revocations.js';
import { registerRoutes } from './routes.js';

export type App = FastifyInstance;

export async function buildApp(ctx: AppContext, options: { logger?: boolean; logStream?: { write(line: string): void } } = {}) {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: ctx.config.logLevel,
            ...(options.logStream ? { stream: options.logStream } : {}),
            redact: ['req.headers.authorization', 'req.headers.cookie', 'req.body.password', 'req.body.pin'],
            serializers: {
              req: (req) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
            },
            hooks: {
              // A download the browser gave up is not an error of ours (aborted-download.ts).
              logMethod(args, method, level) {
                if (level >= 50 && isAbortedDownload(args[0])) return this.debug(...(args as [object, string]));
                return method.apply(this, args);
              },
            },
          },
    bodyLimit: ctx.config.bodyLimitBytes,
    trustProxy: ctx.config.trustProxy,
    // Requests Node or the router refuse before a route runs answer the catalogue's shape too.
    clientErrorHandler,
    frameworkErrors,
    // The response serializer checks anyOf branches with its own Ajv: it must know `text` too.
    serializerOpts: { ajv: { formats: { [TEXT_FORMAT]: isText } } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // JSON bodies: Fastify's parser (prototype poisoning refused), then the guard that keeps NUL
  // characters, lone surrogates and deep nesting out of every route, schema or free-form part.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    parseJson(request, body as string, (error: Error | null, value?: unknown) => {
      if (error) return done(error, undefined);
      try {
        done(null, checkJsonBody(value));
      } catch (invalid) {
        done(invalid as Error, undefined);
      }
    }),
  );

  // Query strings and paths are text, so they are coerced to the schema's types; JSON bodies are
  // not, so `{"username": 5}` is a 40000 rather than silently becoming "5".
  const strictAjv = createAjv(false);
  const coercingAjv = createAjv('array');
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? strictAjv : coercingAjv).compile(schema as object),
  );

  installErrorHandler(app);
  await app.register(authPlugin, { tokens: ctx.tokens, operatorTokens: ctx.operatorTokens });

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", 'https://embed.tawk.to', 'https://code.jivosite.com'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        connectSrc: ["'self'", 'ws:', 'wss:', 'https:'],
        mediaSrc: ["'self'", 'blob:'],
        frameSrc: ["'self'", 'https:'],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  // Compress text answers (the app's JS and CSS, JSON); small ones are not worth it.
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    // Brotli's default (11) costs far more CPU than it saves bytes on the fly.
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } },
  });
  await app.register(rateLimit, { global: false });
  await app.register(credentialRateLimitPlugin, { perMinute: ctx.config.login.rateLimitPerMinute });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Reel Live API',
        version: '1.0.0',
        description: 'Player API of the remote slot machine platform. Amounts are integer cents.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
  });
  // The API's documentation is open; its routes come from the library, so they are declared here.
  await app.register(async (docs) => {
    declareLibraryRoutes(docs, PUBLIC);
    await docs.register(swaggerUi, { routePrefix: '/api/docs' });
  });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  // In a cluster a socket's upgrade answer names the server that took it, as /check does for a
  // request: where HAProxy sent a game socket can be seen from outside (docs/scale.md).
  const serverId = ctx.cluster?.serverId;
  if (serverId) app.websocketServer.on('headers', (headers: string[]) => headers.push(`${SERVER_HEADER}: ${serverId}`));
  await app.register(wsOriginPlugin, { allowedOrigins: ctx.config.ws.allowedOrigins });
  await app.register(corsPlugin, { allowedOrigins: ctx.config.ws.allowedOrigins });

  // Revocations from other processes (the operator's ban) close this server's sockets at once.
  const revocations = listenForRevocations(ctx.db, ctx.bus, app.log);
  app.addHook('onClose', () => revocations.close());

  await registerRoutes(app, ctx);
  return app;
}
