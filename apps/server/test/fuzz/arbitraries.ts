/**
 * fast-check arbitraries derived from JSON Schemas (the TypeBox schemas of packages/protocol, as the
 * routes declare them). Each node of a schema yields mostly a valid value, sometimes a hostile one:
 * NUL bytes and lone surrogates, numbers past int4 and 2^53, wrong types, deep nesting, oversized
 * strings, missing or extra properties. Hostile leaves can sit at any depth, so the fuzzer reaches
 * past the outer validation into handlers as well as testing validation itself.
 */
import fc from 'fast-check';

/** The JSON Schema keywords the arbitraries read (TypeBox emits plain JSON Schema). */
export interface JsonSchema {
  type?: string | string[];
  $ref?: string;
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  patternProperties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  [keyword: string]: unknown;
}
type Resolve = (ref: string) => JsonSchema | undefined;

/** Property names for which a realistic value gets a program further than a random one. */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

export const NASTY_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFF',
  '\uDBFF\u0000',
  "' OR '1'='1' --",
  '%00',
  '%',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '\\',
  '"',
  '\t\r\n',
  'İıŞşĞğ',
  '🎰🎰',
  ' ',
  '',
  'null',
  '-0',
  '1e309',
  '2147483648',
  '9007199254740993',
  '{"a":1}',
  '__proto__',
  'constructor',
  '=cmd|" /C calc"!A0',
];

const NASTY_NUMBERS = [
  2_147_483_648,
  -2_147_483_649,
  2 ** 53,
  -(2 ** 53),
  2 ** 64,
  1e308,
  -1e308,
  0.5,
  -1,
  0,
  1e-320,
];

/** A value nested `depth` arrays deep. */
const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

/** A value that breaks the schema or stresses what reads it, of any type. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(...NASTY_STRINGS), weight: 4 },
  { arbitrary: fc.constantFrom(...NASTY_NUMBERS), weight: 3 },
  { arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], { '': null }), weight: 2 },
  { arbitrary: fc.integer({ min: 33, max: 1_000 }).map(nested), weight: 1 },
  { arbitrary: fc.integer({ min: 101, max: 5_000 }).map((n) => 'x'.repeat(n)), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 20 }), weight: 2 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
);

const types = (schema: JsonSchema): string[] =>
  Array.isArray(schema.type) ? schema.type : typeof schema.type === 'string' ? [schema.type] : [];

const isoDate = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 40, 200);
  if (schema.format === 'date-time') return isoDate;
  if (typeof schema.pattern === 'string') {
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity));
  }
  const plain = fc.oneof(
    fc.string({ minLength, maxLength }),
    fc.string({ unit: 'grapheme', minLength, maxLength }),
  );
  return fc.oneof(
    { arbitrary: plain, weight: 6 },
    // Inside the length limits, a nasty one that is still valid text (or not: validation decides).
    {
      arbitrary: fc
        .constantFrom(...NASTY_STRINGS)
        .filter((s) => s.length >= minLength && s.length <= maxLength),
      weight: 1,
    },
    // Valid but for one NUL or lone surrogate somewhere: what only a text check refuses.
    {
      arbitrary: fc
        .tuple(plain, fc.constantFrom('\u0000', '\uD800', '\uDFFF'), fc.nat())
        .map(
          ([text, bad, at]) =>
            text.slice(0, at % (text.length + 1)) + bad + text.slice(at % (text.length + 1)),
        ),
      weight: 2,
    },
  );
}

function integerArbitrary(schema: JsonSchema): fc.Arbitrary<number> {
  const min = Math.max(schema.minimum ?? -(2 ** 31), Number.MIN_SAFE_INTEGER);
  const max = Math.min(schema.maximum ?? 2 ** 31 - 1, Number.MAX_SAFE_INTEGER);
  const small = fc.integer({ min: Math.max(min, -3), max: Math.min(max, 20) });
  return min <= max ? fc.oneof(small, fc.integer({ min, max }), fc.constantFrom(min, max)) : fc.constant(min);
}

/** `arbitrary` one time in `odds`, null otherwise. */
export const rarely = <T>(arbitrary: fc.Arbitrary<T>, odds: number): fc.Arbitrary<T | null> =>
  fc.oneof({ arbitrary: fc.constant(null), weight: odds - 1 }, { arbitrary, weight: 1 });

interface SchemaArbitraryOptions {
  resolve?: Resolve;
  hints?: Hints;
  /** Weight of a hostile value against 10 for a valid one, at every node. */
  hostileWeight?: number;
}

/**
 * The arbitrary of one schema node. `depth` bounds recursion through `$ref`s and records.
 */
export function schemaArbitrary(
  schema: JsonSchema,
  options: SchemaArbitraryOptions = {},
  depth = 0,
): fc.Arbitrary<unknown> {
  const valid = validArbitrary(schema, options, depth);
  const weight = options.hostileWeight ?? 1;
  return weight > 0 ? fc.oneof({ arbitrary: valid, weight: 10 }, { arbitrary: hostileValue, weight }) : valid;
}

function validArbitrary(
  schema: JsonSchema,
  options: SchemaArbitraryOptions,
  depth: number,
): fc.Arbitrary<unknown> {
  const child = (s: JsonSchema) => schemaArbitrary(s, options, depth + 1);
  if (depth > 8) return fc.constant(null);
  if (typeof schema.$ref === 'string') {
    const target = options.resolve?.(schema.$ref);
    return target ? validArbitrary(target, options, depth + 1) : fc.jsonValue({ maxDepth: 2 });
  }
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives) && alternatives.length)
    return fc.oneof(...alternatives.map((s: JsonSchema) => validArbitrary(s, options, depth + 1)));
  if (Array.isArray(schema.allOf) && schema.allOf.length)
    return validArbitrary(Object.assign({}, ...schema.allOf), options, depth + 1);

  const list = types(schema);
  if (list.length > 1)
    return fc.oneof(...list.map((type) => validArbitrary({ ...schema, type }, options, depth)));
  switch (list[0]) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return integerArbitrary(schema);
    case 'number':
      return fc.double({
        noNaN: true,
        noDefaultInfinity: true,
        min: schema.minimum ?? -1e9,
        max: schema.maximum ?? 1e9,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schema.items ? child(schema.items) : fc.jsonValue({ maxDepth: 2 }), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case 'object':
      return objectArbitrary(schema, options, depth);
    default:
      // No type: anything (TypeBox's Unknown).
      return fc.jsonValue({ maxDepth: 3 });
  }
}

function objectArbitrary(
  schema: JsonSchema,
  options: SchemaArbitraryOptions,
  depth: number,
): fc.Arbitrary<unknown> {
  const properties: Record<string, JsonSchema> = schema.properties ?? {};
  const required = new Set<string>(schema.required ?? []);
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) {
    const hint = options.hints?.[name];
    const generated = schemaArbitrary(property, options, depth + 1);
    record[name] = hint
      ? fc.oneof({ arbitrary: hint, weight: 2 }, { arbitrary: generated, weight: 1 })
      : generated;
  }
  const base = Object.keys(record).length
    ? fc.record(record, { requiredKeys: [...required].filter((k) => k in record) as never[] })
    : fc.constant({});
  // Free-form maps (TypeBox Record): patternProperties or additionalProperties with a schema.
  const mapSchema: JsonSchema | undefined =
    (schema.patternProperties && Object.values(schema.patternProperties)[0]) ||
    (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
  const map = mapSchema
    ? fc.dictionary(
        fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...NASTY_STRINGS)),
        schemaArbitrary(mapSchema, options, depth + 1),
        { maxKeys: 4 },
      )
    : fc.constant({});
  return fc
    .tuple(
      base,
      map,
      // fc.option's freq is the odds against null: now and then an extra property, a missing one.
      rarely(fc.tuple(fc.constantFrom('extra', '__proto__x', ''), hostileValue), 8),
      required.size ? rarely(fc.constantFrom(...required), 10) : fc.constant(null),
    )
    .map(([value, free, extra, drop]) => {
      const result: Record<string, unknown> = { ...(free as object), ...(value as object) };
      if (extra) result[extra[0]] = extra[1];
      // Now and then a required property goes missing.
      if (drop !== null) delete result[drop];
      return result;
    });
}
