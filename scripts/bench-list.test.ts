/**
 * `npm run bench` installs what each benchmark needs (bench-list.ts): a benchmark that drives
 * Chromium names it, the network bench names what its fault rig runs (nft, ip), and every benchmark
 * that streams video names Debian's ffmpeg, so a fresh machine gets them as `npm test` does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BENCHES } from './bench-list.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const packagesOf = (name: string) => BENCHES.find((b) => b.name === name)?.packages ?? [];

describe('the benchmarks name the Debian packages they need', () => {
  it('every listed benchmark exists', () => {
    for (const bench of BENCHES) expect(fs.existsSync(path.join(root, bench.file)), bench.file).toBe(true);
  });

  it('a benchmark that starts Chromium cannot run without it', () => {
    for (const bench of BENCHES) {
      const code = source(bench.file) + (bench.name === 'web' ? source('e2e/bench/web-lighthouse.ts') : '');
      if (!/chromium\.launch|CHROMIUM_PATH|chromePath/.test(code)) continue;
      expect(packagesOf(bench.name), bench.name).toContainEqual(expect.objectContaining({ pkg: 'chromium', required: true }));
    }
  });

  it('the network bench cannot run without the fault rig tools, and the rig uses exactly those', () => {
    const rig = source('e2e/network/rig.ts');
    expect(rig).toMatch(/run\('nft'|'nft'/);
    expect(rig).toMatch(/run\('ip'/);
    const network = packagesOf('network');
    expect(network).toContainEqual(expect.objectContaining({ pkg: 'nftables', binary: '/usr/sbin/nft', required: true }));
    expect(network).toContainEqual(expect.objectContaining({ pkg: 'iproute2', binary: '/bin/ip', required: true }));
  });

  it('every benchmark that streams video names the ffmpeg its figures are measured with', () => {
    for (const bench of BENCHES) {
      if (!/startHarness|scripts\/start\.ts/.test(source(bench.file))) continue;
      expect(packagesOf(bench.name), bench.name).toContainEqual(expect.objectContaining({ pkg: 'ffmpeg' }));
    }
  });
});
