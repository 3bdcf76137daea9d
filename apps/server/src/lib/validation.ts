/**
 * Input validation shared by HTTP routes and the WebSocket channels: one Ajv set-up (with the
 * protocol's `text` format), and the guard every JSON body passes before any schema sees it.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';
import type { Static, TSchema } from 'typebox';
import { Code, TEXT_FORMAT, isText, jsonBodyProblem } from '@reel/protocol';
import { AppError } from './errors.js';

// A CommonJS module: its default export is the module object, the plugin sits on .default.
const addFormats = ajvFormats.default;

export function createAjv(coerceTypes: false | 'array') {
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
  });
  addFormats(ajv);
  ajv.addFormat(TEXT_FORMAT, { type: 'string', validate: isText });
  return ajv;
}

/** JSON as it arrived parsed; throws 40000 when it nests too deep or carries NUL / lone surrogates. */
export function checkJsonBody<T>(value: T): T {
  const problem = jsonBodyProblem(value);
  if (problem) throw new AppError(Code.InvalidRequest, 400, {}, `Invalid request: ${problem}`);
  return value;
}

/** The first validation error as one line, e.g. `data/machineID must be <= 2147483647`. */
function describeErrors(validate: ValidateFunction, where = 'data'): string {
  const error = validate.errors?.[0];
  if (!error) return 'not valid';
  return `${where}${error.instancePath} ${error.message ?? 'is not valid'}`;
}

/** A message of a channel whose events are one schema each, typed by its event. */
type ChannelMessage<S extends Record<string, TSchema>> = {
  [E in keyof S & string]: { event: E; data: Static<S[E]> };
}[keyof S & string];

/**
 * Validators for a channel's client messages `{ event, data }`, one schema per event. `check`
 * answers the parsed message or throws 40000 (unknown event, or data not matching its schema).
 */
export function messageValidator<S extends Record<string, TSchema>>(schemas: S) {
  const ajv = createAjv(false);
  const compiled = new Map(
    Object.entries(schemas).map(([event, schema]) => [event, ajv.compile(schema as object)]),
  );
  return {
    check(message: unknown): ChannelMessage<S> {
      if (message === null || typeof message !== 'object' || Array.isArray(message))
        throw invalid('a message is an object { event, data }');
      const { event, data = {} } = message as { event?: unknown; data?: unknown };
      const validate = typeof event === 'string' ? compiled.get(event) : undefined;
      if (!validate) throw invalid('unknown event');
      const problem = jsonBodyProblem(data);
      if (problem) throw invalid(problem);
      if (!validate(data)) throw invalid(describeErrors(validate));
      return { event, data } as ChannelMessage<S>;
    },
  };
}

const invalid = (detail: string) => new AppError(Code.InvalidRequest, 400, {}, `Invalid request: ${detail}`);
