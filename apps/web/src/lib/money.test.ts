import { describe, expect, it } from 'vitest';
import { formatMoney, parseJackpots, prepareMoneyFormatter } from './money';

describe('formatMoney', () => {
  it('shows cents as lira in tr-TR: 123456 → ₺1.234,56', () => {
    expect(formatMoney(123456)).toBe('₺1.234,56');
  });
  it('keeps two decimals and handles zero, small and negative amounts', () => {
    expect(formatMoney(0)).toBe('₺0,00');
    expect(formatMoney(5)).toBe('₺0,05');
    expect(formatMoney(100000)).toBe('₺1.000,00');
    expect(formatMoney(-2550)).toBe('-₺25,50');
  });
  it('follows another configured currency and locale', () => {
    expect(formatMoney(123456, 'USD', 'en-US')).toBe('$1,234.56');
  });
  it('falls back to a plain number for an unknown currency code', () => {
    expect(formatMoney(123456, 'NOT-A-CODE')).toBe('1.234,56');
  });
  it('formats with the formatter made ahead of the first render (no second Intl formatter)', () => {
    const Original = Intl.NumberFormat;
    let made = 0;
    Intl.NumberFormat = function (...args: ConstructorParameters<typeof Intl.NumberFormat>) {
      made += 1;
      return new Original(...args);
    } as unknown as typeof Intl.NumberFormat;
    try {
      prepareMoneyFormatter('EUR', 'de-DE');
      expect(made).toBe(1);
      expect(formatMoney(123456, 'EUR', 'de-DE')).toBe('1.234,56\u00a0€');
      expect(made).toBe(1);
    } finally {
      Intl.NumberFormat = Original;
    }
  });
});

describe('parseJackpots', () => {
  it('splits the comma-separated list of cents and drops junk', () => {
    expect(parseJackpots('250000, 50000,abc,,10000')).toEqual([250000, 50000, 10000]);
    expect(parseJackpots('')).toEqual([]);
    expect(parseJackpots(null)).toEqual([]);
  });
});
