/**
 * Where a Janus binary keeps its plugins and transports. Debian's package puts them under the
 * multiarch library folder; a Janus built from source and installed under a prefix
 * (`<prefix>/bin/janus`) keeps them in `<prefix>/lib/janus`, and must load its own: plugins of
 * another Janus version do not fit its core.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

export const DEBIAN_JANUS_BIN = '/usr/bin/janus';
const DEBIAN_JANUS_LIB = '/usr/lib/x86_64-linux-gnu/janus';

export function janusLibDir(bin: string, exists: (file: string) => boolean = existsSync): string {
  const prefixed = path.resolve(path.dirname(bin), '../lib/janus');
  return exists(path.join(prefixed, 'plugins')) ? prefixed : DEBIAN_JANUS_LIB;
}
