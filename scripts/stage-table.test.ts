import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { childrenCpuSeconds, formatStageTable } from './stage-table.js';

describe('the stage table npm test ends with', () => {
  it('lists every stage with its result, wall and CPU time, and the totals', () => {
    const table = formatStageTable(
      [
        { title: 'lint', ok: true, seconds: 20, cpuSeconds: 31.4 },
        { title: 'product end-to-end tests', ok: false, seconds: 425, cpuSeconds: 700 },
      ],
      900,
    ).split('\n');
    expect(table).toHaveLength(4);
    expect(table[1]).toMatch(/^lint +passed +20 s +0:20 +31 s$/);
    expect(table[2]).toMatch(/^product end-to-end tests +FAILED +425 s +7:05 +700 s$/);
    expect(table[3]).toMatch(/^total \(with installs and set-up\) +900 s +15:00 +731 s$/);
  });

  it("counts the CPU time of a finished child's whole tree", () => {
    const before = childrenCpuSeconds()!;
    // A child whose own child burns half a second of CPU (by its own CPU clock, whatever the load).
    const burn = 'while (process.cpuUsage().user < 500000);';
    spawnSync(process.execPath, ['-e', `require('child_process').spawnSync(process.execPath, ['-e', '${burn}'])`]);
    expect(childrenCpuSeconds()! - before).toBeGreaterThanOrEqual(0.5);
  });
});
