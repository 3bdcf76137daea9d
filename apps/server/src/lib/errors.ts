import { Code, messageFor, type Params } from '@reel/protocol';

/**
 * An expected failure with a catalogue code. Routes throw it; the error handler turns it into
 * `{ status: false, code, ErrorMessage, Params }` with the HTTP status given here.
 */
export class AppError extends Error {
  constructor(
    readonly code: number,
    readonly httpStatus = 400,
    readonly params: Params = {},
    message?: string,
  ) {
    super(message ?? messageFor(code, 'en', params) ?? `error ${code}`);
    this.name = 'AppError';
  }
}

export const errors = {
  invalidRequest: (detail?: string) => new AppError(Code.InvalidRequest, 400, {}, detail),
  unauthorized: () => new AppError(Code.InvalidAccessToken, 401),
  /** A well-formed token whose signature does not verify with this server's key (spec code 10). */
  signature: () => new AppError(Code.SignatureNotVerified, 401),
  expired: () => new AppError(Code.AccessTokenExpired, 401),
  forbidden: () => new AppError(Code.Forbidden, 403),
  notFound: () => new AppError(Code.NotFound, 404),
  insufficientBalance: () => new AppError(Code.InsufficientBalance, 409),
};

export function errorBody(code: number, message: string, params?: Params) {
  return { status: false, code, ErrorMessage: message, ...(params && Object.keys(params).length ? { Params: params } : {}) };
}

/**
 * PostgreSQL errors that mean the input could not be stored or compared as given (class 22, data
 * exception: NUL or bad bytes in text 22021/22P05, numbers out of range 22003, bad casts 22P02...;
 * 54001, nesting too deep): the request was bad, not the server. Validation keeps such input out in
 * the first place; this is the net under it.
 */
export function databaseInputError(error: unknown): AppError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return undefined;
  if (code.startsWith('22') || code === '54001') return new AppError(Code.InvalidRequest, 400, {}, 'Invalid request: a value is out of range or not valid text');
  return undefined;
}

/** Any error as the coded error a client is told: AppErrors as they are, bad input as 40000, else undefined. */
export const asAppError = (error: unknown): AppError | undefined =>
  error instanceof AppError ? error : databaseInputError(error);
