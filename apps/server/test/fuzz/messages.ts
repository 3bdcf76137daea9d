/** Fuzzed WebSocket messages from a channel's schemas: valid-ish envelopes, hostile ones, broken text. */
import fc from 'fast-check';
import { hostileValue, NASTY_STRINGS, schemaArbitrary, type Hints, type JsonSchema } from './arbitraries.js';

export type ChannelSchemas = Record<string, JsonSchema>;

export function messageArbitrary(schemas: ChannelSchemas, hints: Hints): fc.Arbitrary<string> {
  const events = Object.keys(schemas);
  const envelope = fc.oneof(
    // init (which closes the socket when it fails) less often, so the play messages get their turn.
    ...events.map((event) => ({
      arbitrary: schemaArbitrary(schemas[event]!, { hints }).map((data) => ({ event, data })),
      weight: event === 'init' ? 1 : 4,
    })),
    fc
      .tuple(fc.constantFrom('nope', '', 'INIT', '__proto__', 'constructor'), hostileValue)
      .map(([event, data]) => ({ event, data })),
    fc.tuple(fc.constantFrom(...events), hostileValue).map(([event, data]) => ({ event, data })),
  );
  return fc.oneof(
    { arbitrary: envelope.map((m) => JSON.stringify(m) ?? 'null'), weight: 12 },
    {
      arbitrary: fc.constantFrom(
        '{',
        'null',
        '[]',
        '"init"',
        '{"event":"init"}',
        '{"event":"init","data":null}',
        ...NASTY_STRINGS,
      ),
      weight: 1,
    },
    // Built as text: JSON.stringify itself would overflow the stack on such depths.
    {
      arbitrary: fc
        .tuple(fc.constantFrom(...events), fc.integer({ min: 33, max: 20_000 }))
        .map(([event, d]) => `{"event":"${event}","data":{"a":${'['.repeat(d)}${']'.repeat(d)}}}`),
      weight: 1,
    },
  );
}

