/**
 * One error shape for every failure: `{ status: false, code, ErrorMessage, Params }`; no internals
 * on 5xx. This holds for what Node's HTTP parser refuses before Fastify sees a request too (431 for
 * oversized URLs and headers, 400 for malformed requests): see `clientErrorHandler`.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Code, messageFor } from '@reel/protocol';
import { AppError, databaseInputError, errorBody } from '../lib/errors.js';

export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.httpStatus).send(errorBody(error.code, error.message, error.params));
    }
    if ((error as FastifyError).validation) {
      const detail = error.message.slice(0, 300);
      return reply.status(400).send(errorBody(Code.InvalidRequest, `Invalid request: ${detail}`));
    }
    const badInput = databaseInputError(error);
    if (badInput) {
      // Validation should have refused this input; say which route let it through.
      request.log.warn({ err: error, route: request.routeOptions.url }, 'database refused request input');
      return reply.status(badInput.httpStatus).send(errorBody(badInput.code, badInput.message));
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status === 413)
      return reply.status(413).send(errorBody(Code.RequestTooLarge, messageFor(Code.RequestTooLarge)!));
    if (status === 429)
      return reply.status(429).send(errorBody(Code.TooManyRequests, messageFor(Code.TooManyRequests)!));
    if (status >= 400 && status < 500) {
      return reply.status(status).send(errorBody(Code.InvalidRequest, messageFor(Code.InvalidRequest)!));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorBody(Code.InternalError, messageFor(Code.InternalError)!));
  });
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(errorBody(Code.NotFound, messageFor(Code.NotFound)!));
  });
}

/**
 * Fastify's `frameworkErrors`: a URL that is not valid percent-encoding (400) or a path parameter
 * over the router's length limit (414) answers the catalogue's shape like any other bad input.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode ?? 400;
  const code =
    status === 414 ? Code.RequestTooLarge : status >= 500 ? Code.InternalError : Code.InvalidRequest;
  void reply.status(status).send(errorBody(code, messageFor(code)!));
}

/**
 * Node's `clientError`: the request never reached Fastify (request line or headers over the limit,
 * malformed HTTP, a timeout). Answers the catalogue's shape as Fastify's default would answer its
 * own: 431 with 41300 for oversized URLs and headers, 408 or 400 with 40000 otherwise.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code] =
    error.code === 'HPE_HEADER_OVERFLOW' || error.code === 'HPE_URI_TOO_LONG'
      ? [431, Code.RequestTooLarge]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, Code.InvalidRequest]
        : [400, Code.InvalidRequest];
  const body = JSON.stringify(errorBody(code, messageFor(code)!));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
