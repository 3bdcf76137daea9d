/**
 * Building blocks every request schema uses for what a client sends: text that a database can store
 * (no NUL character, no lone UTF-16 surrogate) and integers that fit PostgreSQL's `integer`.
 * A request that breaks them is a 40000 before any handler runs, so nothing is half-written.
 */
import { Type, type TNumberOptions, type TStringOptions } from 'typebox';
import { Format } from 'typebox/format';

/** The JSON Schema `format` of client text; the server's validator registers the same check. */
export const TEXT_FORMAT = 'text';

// A high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True for text PostgreSQL stores as given: no NUL (U+0000) and well-formed UTF-16. */
export function isText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

// TypeBox's own checker (Value.Check, Compile) knows the format too, not only the server's Ajv.
Format.Set(TEXT_FORMAT, isText);

/** A string a client sends: `format: text` plus the given limits. */
export const Text = (options: TStringOptions = {}) => Type.String({ ...options, format: TEXT_FORMAT });

/** PostgreSQL `integer` (int4) range: ids and counts that are stored or compared in such columns. */
export const INT4_MIN = -2_147_483_648;
export const INT4_MAX = 2_147_483_647;

/** An integer in the int4 range; `options` may narrow it (e.g. `{ minimum: 1 }`). */
export const Int4 = (options: TNumberOptions = {}) =>
  Type.Integer({ minimum: INT4_MIN, maximum: INT4_MAX, ...options });

/** JSON request bodies nest at most this deep (objects and arrays); deeper is a 40000. */
export const JSON_MAX_DEPTH = 32;

/**
 * Why a parsed JSON value is not acceptable as a request body, or null when it is: nesting deeper
 * than `maxDepth`, or a key or string that is not `isText`. Iterative, so no input can overflow
 * the stack.
 */
export function jsonBodyProblem(value: unknown, maxDepth = JSON_MAX_DEPTH): string | null {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (typeof item === 'string') {
      if (!isText(item)) return 'a string holds a NUL character or a lone surrogate';
    } else if (item !== null && typeof item === 'object') {
      if (depth >= maxDepth) return `JSON nests deeper than ${maxDepth} levels`;
      if (Array.isArray(item)) {
        for (const element of item) stack.push([element, depth + 1]);
      } else {
        for (const [key, element] of Object.entries(item)) {
          if (!isText(key)) return 'a key holds a NUL character or a lone surrogate';
          stack.push([element, depth + 1]);
        }
      }
    }
  }
  return null;
}
