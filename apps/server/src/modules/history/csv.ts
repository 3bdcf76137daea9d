/** CSV output for the history downloads (RFC 4180, CRLF, UTF-8 with a BOM so spreadsheets read Turkish names). */

export type CsvValue = string | number | null | undefined;

const NUMBER = /^-?\d+(\.\d+)?$/;
// A spreadsheet evaluates a cell that starts with one of these as a formula.
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  // Our own numbers (e.g. -12.50) are data, not formulas; anything else that looks like one is defused.
  if (FORMULA_START.test(text) && !NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (values: CsvValue[]) => `${values.map(csvCell).join(',')}\r\n`;

export const CSV_BOM = '\uFEFF';

/** Seconds as H:MM:SS, the way a played duration is read. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}
