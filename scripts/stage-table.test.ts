import { describe, expect, it } from 'vitest';
import { formatStageTable } from './stage-table.js';

describe('the stage table npm test ends with', () => {
  it('lists every stage with its result and time, and the total', () => {
    const table = formatStageTable(
      [
        { title: 'lint', ok: true, seconds: 20 },
        { title: 'product end-to-end tests', ok: false, seconds: 425 },
      ],
      900,
    ).split('\n');
    expect(table).toHaveLength(4);
    expect(table[1]).toMatch(/^lint +passed +20 s +0:20$/);
    expect(table[2]).toMatch(/^product end-to-end tests +FAILED +425 s +7:05$/);
    expect(table[3]).toMatch(/^total \(with installs and set-up\) +900 s +15:00$/);
  });
});
