/** The input building blocks (text.ts) and the WebSocket client message schemas (ws.ts). */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Value } from 'typebox/value';
import { INT4_MAX, INT4_MIN, Int4, JSON_MAX_DEPTH, Text, isText, jsonBodyProblem } from './text.js';
import { GameClientSchemas, NotificationClientSchemas, PROTOCOL_VERSION } from './ws.js';

describe('isText', () => {
  it('accepts any well-formed text without NUL', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => isText(s.replaceAll('\u0000', '')) === true),
    );
    expect(isText('Türkçe 🎰 ok')).toBe(true);
  });

  it('refuses NUL and lone surrogates anywhere', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.constantFrom('\u0000', '\uD800', '\uDFFF', '\uDBFF'),
        (a, b, bad) => {
          // A lone high surrogate right before a low one would pair up; keep the neighbours plain.
          return !isText(`${a}x${bad}x${b}`);
        },
      ),
    );
  });

  it('is the check of the `text` format TypeBox validates with', () => {
    expect(Value.Check(Text({ maxLength: 5 }), 'ab')).toBe(true);
    expect(Value.Check(Text(), 'a\u0000b')).toBe(false);
    expect(Value.Check(Text({ maxLength: 2 }), 'abc')).toBe(false);
  });
});

describe('Int4', () => {
  it('holds exactly the PostgreSQL integer range, narrowed by options', () => {
    expect(Value.Check(Int4(), INT4_MAX)).toBe(true);
    expect(Value.Check(Int4(), INT4_MIN)).toBe(true);
    expect(Value.Check(Int4(), INT4_MAX + 1)).toBe(false);
    expect(Value.Check(Int4(), INT4_MIN - 1)).toBe(false);
    expect(Value.Check(Int4({ minimum: 1 }), 0)).toBe(false);
    expect(Value.Check(Int4({ minimum: 1 }), INT4_MAX + 1)).toBe(false);
    expect(Value.Check(Int4(), 1.5)).toBe(false);
  });
});

describe('jsonBodyProblem', () => {
  const nest = (depth: number): unknown =>
    depth === 0 ? 1 : depth % 2 ? [nest(depth - 1)] : { a: nest(depth - 1) };

  it(`allows ${JSON_MAX_DEPTH} levels and refuses more, without recursion`, () => {
    expect(jsonBodyProblem(nest(JSON_MAX_DEPTH))).toBeNull();
    expect(jsonBodyProblem(nest(JSON_MAX_DEPTH + 1))).toMatch(/deeper/);
    expect(jsonBodyProblem(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`))).toMatch(/deeper/);
  });

  it('finds a NUL or lone surrogate in any key or string', () => {
    expect(jsonBodyProblem({ a: [{ b: 'x\u0000' }] })).toMatch(/NUL/);
    expect(jsonBodyProblem({ a: { 'k\u0000': 1 } })).toMatch(/key/);
    expect(jsonBodyProblem(['\uD800'])).toMatch(/surrogate/);
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 10 }), (value) => {
        const clean =
          JSON.stringify(value).includes('\\u0000') || JSON.stringify(value).match(/\\ud[89a-f]/i);
        return clean ? true : jsonBodyProblem(value) === null;
      }),
    );
  });
});

describe('WebSocket client messages', () => {
  it("accept the spec's init (machineID and token, with id on the notification channel) and the web app's messages", () => {
    const token = 'h.p.s';
    expect(Value.Check(GameClientSchemas.init, { machineID: 3, token, protocol: PROTOCOL_VERSION })).toBe(
      true,
    );
    expect(Value.Check(GameClientSchemas.init, { machineID: 3 })).toBe(true);
    expect(Value.Check(GameClientSchemas.cashout, {})).toBe(true);
    expect(Value.Check(GameClientSchemas.cashin, { amountCents: 500, idempotencyKey: 'k-1' })).toBe(true);
    expect(Value.Check(GameClientSchemas.spin, { commandId: 'c-1' })).toBe(true);
    expect(Value.Check(GameClientSchemas.bet, { commandId: 'c-2', level: 1 })).toBe(true);
    expect(Value.Check(GameClientSchemas.autoplay, { commandId: 'c-3', on: true })).toBe(true);
    expect(Value.Check(GameClientSchemas.band, { bandId: 'high' })).toBe(true);
    expect(
      Value.Check(NotificationClientSchemas.init, { id: 7, token, lastSeq: 12, protocol: PROTOCOL_VERSION }),
    ).toBe(true);
    expect(Value.Check(NotificationClientSchemas.ping, {})).toBe(true);
  });

  it('refuse wrong ones', () => {
    for (const data of [
      {},
      { machineID: 0 },
      { machineID: INT4_MAX + 1 },
      { machineID: '3' },
      { machineID: 3, token: 'a\u0000' },
    ]) {
      expect(Value.Check(GameClientSchemas.init, data), JSON.stringify(data)).toBe(false);
    }
    expect(Value.Check(GameClientSchemas.cashin, { amountCents: 0, idempotencyKey: 'k' })).toBe(false);
    expect(Value.Check(GameClientSchemas.cashin, { amountCents: 2 ** 64, idempotencyKey: 'k' })).toBe(false);
    expect(Value.Check(GameClientSchemas.cashin, { amountCents: 5, idempotencyKey: 'k\u0000' })).toBe(false);
    expect(Value.Check(GameClientSchemas.spin, { commandId: 'x'.repeat(65) })).toBe(false);
    expect(Value.Check(GameClientSchemas.band, { bandId: '' })).toBe(false);
    expect(Value.Check(NotificationClientSchemas.init, { id: 7 })).toBe(false);
  });
});
