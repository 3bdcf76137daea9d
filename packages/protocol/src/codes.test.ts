/** The error catalogue (spec section 8): complete, translated, and the spec's wording kept. */
import { describe, expect, it } from 'vitest';
import { Code, catalogue, formatMessage, messageFor } from './codes.js';

describe('catalogue', () => {
  const codes = Object.entries(Code);

  it('has non-empty en and tr texts for every code', () => {
    for (const [name, code] of codes) {
      const entry = catalogue[code];
      expect(entry, name).toBeDefined();
      expect(entry.en.trim(), `${name} en`).not.toBe('');
      expect(entry.tr.trim(), `${name} tr`).not.toBe('');
    }
  });

  it('has no entry without a named code, and no code twice', () => {
    expect(Object.keys(catalogue).map(Number).sort()).toEqual(codes.map(([, code]) => code).sort());
    expect(new Set(codes.map(([, code]) => code)).size).toBe(codes.length);
  });

  it('uses the same placeholders in en and tr', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [name, code] of codes) {
      expect(placeholders(catalogue[code].tr), name).toEqual(placeholders(catalogue[code].en));
    }
  });

  it("keeps the spec's section 8 texts word for word", () => {
    const spec: [number, string][] = [
      [10, "Signature Doesn't Verified"],
      [20000, 'Request Successfull'],
      [40000, 'Invalid request'],
      [40001, 'Old password is wrong'],
      [40101, 'Password is too short'],
      [50100, 'The session has been terminated. We are unable to process the transaction.'],
      [70000, 'Failed to start pipeline. Please contact the technical team.'],
      [
        10700,
        'Incorrect username or password; remaining rights {left_count}, blocked for {block_time} minutes',
      ],
      [10701, 'Username or password is wrong'],
      [10702, 'Account has been protected due to too many false attempts'],
      [10703, 'Your ip is not permitted'],
      [10704, 'You have been banned'],
      [18800, 'You have {count} seconds left to deposit funds'],
      [18801, 'Your session is being terminated'],
    ];
    for (const [code, text] of spec) expect(messageFor(code), String(code)).toBe(text);
    // 18802: the spec names it "seconds left to continue" without the full wording.
    expect(messageFor(18802)).toMatch(/seconds left to continue/);
  });

  it('fills placeholders from Params and leaves unknown ones visible', () => {
    expect(messageFor(Code.LoginIncorrect, 'en', { left_count: 2, block_time: 15 })).toBe(
      'Incorrect username or password; remaining rights 2, blocked for 15 minutes',
    );
    expect(messageFor(Code.LoginIncorrect, 'tr', { left_count: 2, block_time: 15 })).toContain('kalan hak 2');
    expect(formatMessage('{a} and {b}', { a: 1 })).toBe('1 and {b}');
    expect(messageFor(123456)).toBeUndefined();
  });
});
