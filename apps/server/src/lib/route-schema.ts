/** Pieces every route schema shares, so each module declares only what is its own. */
import { ErrorResponse } from '@reel/protocol';

/** Every failure answers the catalogue's error shape. */
export const errorResponses = { '4xx': ErrorResponse, '5xx': ErrorResponse };

/** A schema builder for bearer-authenticated routes of one OpenAPI tag; keeps the literal types. */
export const securedSchema =
  (tag: string) =>
  <S extends object>(extra: S) => ({ tags: [tag], security: [{ bearer: [] }], ...extra });
