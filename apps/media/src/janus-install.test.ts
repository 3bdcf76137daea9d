import { describe, expect, it } from 'vitest';
import { janusLibDir } from './janus-install.js';

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
