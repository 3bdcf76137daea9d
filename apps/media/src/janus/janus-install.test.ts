import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEBIAN_JANUS_BIN, chooseJanus, janusLibDir, patchedJanusPrefix, srtpLinkProblem } from './janus-install.js';

if (!existsSync(DEBIAN_JANUS_BIN)) console.log(`srtpLinkProblem test: skipped, ${DEBIAN_JANUS_BIN} is not installed (CI installs Debian's janus)`);
describe.skipIf(!existsSync(DEBIAN_JANUS_BIN))('srtpLinkProblem', () => {
  it("names Debian's libsrtp2 on NSS in Debian's own Janus", () => {
    expect(srtpLinkProblem(DEBIAN_JANUS_BIN)).toMatch(/libsrtp2 \(on NSS\)/);
  });
});

describe('janusLibDir', () => {
  it("takes Debian's folder for Debian's binary", () => {
    expect(janusLibDir('/usr/bin/janus', () => false)).toBe('/usr/lib/x86_64-linux-gnu/janus');
  });

  it('takes the prefix of a Janus built from source, whose plugins are its own', () => {
    const seen: string[] = [];
    const exists = (file: string) => (seen.push(file), file === '/opt/janus-1.4.1/lib/janus/plugins');
    expect(janusLibDir('/opt/janus-1.4.1/bin/janus', exists)).toBe('/opt/janus-1.4.1/lib/janus');
    expect(seen).toEqual(['/opt/janus-1.4.1/lib/janus/plugins']);
  });
});

describe('patchedJanusPrefix', () => {
  it('names the Debian version and a hash of the patch, so a changed patch is a new build', () => {
    const a = patchedJanusPrefix('patch A');
    expect(a).toMatch(/^\/var\/lib\/reel-live\/janus-1\.4\.1\+ds-4-[0-9a-f]{12}$/);
    expect(patchedJanusPrefix('patch A')).toBe(a);
    expect(patchedJanusPrefix('patch B')).not.toBe(a);
  });
});

describe('chooseJanus', () => {
  const patched = `${patchedJanusPrefix()}/bin/janus`;

  it('runs JANUS_BIN when set', () => {
    expect(chooseJanus({ JANUS_BIN: '/opt/j/bin/janus' }, () => true).bin).toBe('/opt/j/bin/janus');
  });

  it('runs the patched build when it is installed', () => {
    expect(chooseJanus({}, (f) => f === patched).bin).toBe(patched);
  });

  it("falls back to Debian's binary, saying so", () => {
    const choice = chooseJanus({}, () => false);
    expect(choice.bin).toBe(DEBIAN_JANUS_BIN);
    expect(choice.what).toMatch(/^Debian's package/);
  });
});

// The build itself (janus-build.ts): `npm test` builds it as root, so this runs in CI.
const built = `${patchedJanusPrefix()}/bin/janus`;
if (!existsSync(built)) console.log(`janus build test: skipped, the patched Janus is not built (${built}); npm test builds it as root`);
describe.skipIf(!existsSync(built))('the patched Janus build', () => {
  it("takes SRTP from the libsrtp2 built on OpenSSL, not Debian's libsrtp2.so on NSS", () => {
    expect(srtpLinkProblem(built)).toBeNull();
  });
});
