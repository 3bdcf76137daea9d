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
  expired: () => new AppError(Code.AccessTokenExpired, 401),
  forbidden: () => new AppError(Code.Forbidden, 403),
  notFound: () => new AppError(Code.NotFound, 404),
  insufficientBalance: () => new AppError(Code.InsufficientBalance, 409),
};

export function errorBody(code: number, message: string, params?: Params) {
  return { status: false, code, ErrorMessage: message, ...(params && Object.keys(params).length ? { Params: params } : {}) };
}
