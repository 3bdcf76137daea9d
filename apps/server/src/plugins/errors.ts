/** One error shape for every failure: `{ status: false, code, ErrorMessage, Params }`; no internals on 5xx. */
import type { FastifyError, FastifyInstance } from 'fastify';
import { Code, messageFor } from '@reel/protocol';
import { AppError, errorBody } from '../lib/errors.js';

export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.httpStatus).send(errorBody(error.code, error.message, error.params));
    }
    if ((error as FastifyError).validation) {
      const detail = error.message.slice(0, 300);
      return reply.status(400).send(errorBody(Code.InvalidRequest, `Invalid request: ${detail}`));
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status === 413) return reply.status(413).send(errorBody(Code.RequestTooLarge, messageFor(Code.RequestTooLarge)!));
    if (status === 429) return reply.status(429).send(errorBody(Code.TooManyRequests, messageFor(Code.TooManyRequests)!));
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
