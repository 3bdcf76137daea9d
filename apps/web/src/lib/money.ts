import { CENTS_PER_UNIT } from '@reel/protocol/client';

const formatters = new Map<string, Intl.NumberFormat>();

function formatterFor(locale: string, currency: string): Intl.NumberFormat {
  const key = `${locale}|${currency}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    try {
      formatter = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 2 });
    } catch {
      // A misconfigured currency code must not break the toolbar.
      formatter = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * Makes the formatter before the first screen that shows money needs it. A page's first Intl
 * formatter is slow (ICU loads its locale data: ~30 ms on a desktop, four times that on a phone), so
 * it is made while the page waits for the network instead of inside a render.
 */
export function prepareMoneyFormatter(currency: string, locale: string): void {
  formatterFor(locale, currency);
}

/** Money travels as integer cents; only the display divides (tr-TR, TRY: 123456 → ₺1.234,56). */
export function formatMoney(amountCents: number, currency = 'TRY', locale = 'tr-TR'): string {
  return formatterFor(locale, currency).format(amountCents / CENTS_PER_UNIT);
}

/** A positive amount the player typed in currency units ("12,50" or "12.50"), as cents; null otherwise. */
export function parseMoneyEntry(text: string): number | null {
  const value = Number(text.replace(',', '.'));
  if (!Number.isFinite(value) || value <= 0) return null;
  return Math.round(value * CENTS_PER_UNIT);
}

/** Jackpot values arrive as a comma-separated list of cents. */
export function parseJackpots(jackpot: string | null | undefined): number[] {
  if (!jackpot) return [];
  return jackpot
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((value) => Number.isFinite(value) && value > 0);
}
