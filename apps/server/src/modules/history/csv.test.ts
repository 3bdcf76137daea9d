import { formatCents } from '@reel/protocol';
import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, formatDuration } from './csv.js';

describe('csv', () => {
  it('quotes separators, quotes and line breaks', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded')).toBe('" padded"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(7)).toBe('7');
    expect(csvLine(['a', null, 1])).toBe('a,,1\r\n');
  });

  it('defuses cells a spreadsheet would run as formulas, but keeps negative amounts numeric', () => {
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('+cmd')).toBe("'+cmd");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('-12.50')).toBe('-12.50');
  });

  it('formats cents and durations exactly', () => {
    expect(formatCents(0)).toBe('0.00');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(-10000)).toBe('-100.00');
    expect(formatCents(12550)).toBe('125.50');
    expect(formatCents(123456789)).toBe('1234567.89');
    expect(formatDuration(3661)).toBe('1:01:01');
    expect(formatDuration(null)).toBe('');
  });
});
