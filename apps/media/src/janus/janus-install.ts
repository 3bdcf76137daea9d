/**
 * Which Janus the media process runs, and where a Janus binary keeps its plugins.
 *
 * The scale path runs Janus built from Debian's own source package of 1.4.1 with the NACK fix in
 * `apps/media/janus/ice-nack-loop.patch` (docs/video.md, "Janus (scale path)"), installed by
 * `ensurePatchedJanus` (janus-build.ts) under a prefix named after the source and the patch, so a
 * changed patch or configure line is a new prefix and never a stale build. When that build is
 * absent (not root, or the build failed), Debian's `/usr/bin/janus` (bookworm: 1.1.2) is used.
 * `JANUS_BIN` overrides both.
 *
 * Debian's package puts its plugins and transports under the multiarch library folder; a Janus
 * installed under a prefix (`<prefix>/bin/janus`) keeps them in `<prefix>/lib/janus`, and must
 * load its own: plugins of another Janus version do not fit its core.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEBIAN_JANUS_BIN = '/usr/bin/janus';
const DEBIAN_JANUS_LIB = '/usr/lib/x86_64-linux-gnu/janus';
/** Where the product keeps what it builds or copies for the system (also PostgreSQL's copy). */
const SYSTEM_DIR = '/var/lib/reel-live';

export function janusLibDir(bin: string, exists: (file: string) => boolean = existsSync): string {
  const prefixed = path.resolve(path.dirname(bin), '../lib/janus');
  return exists(path.join(prefixed, 'plugins')) ? prefixed : DEBIAN_JANUS_LIB;
}

/** A file of Debian's source package, checked by its SHA-256 before use. */
interface SourceFile {
  name: string;
  sha256: string;
  /** For snapshot.debian.org's by-hash address, once the pool no longer carries the file. */
  sha1: string;
}

/** Debian's source package of Janus 1.4.1 (unstable, 2026), as `apt-get source janus=1.4.1+ds-4` fetches it. */
export const JANUS_SOURCE = {
  version: '1.4.1+ds-4',
  dsc: 'janus_1.4.1+ds-4.dsc',
  files: [
    {
      name: 'janus_1.4.1+ds-4.dsc',
      sha256: 'cfe28abdc371a593c5c4df15b279781ccff4ea045808c7741c811c3f35db4fc4',
      sha1: '36dd31a077c4e4c3e0ef2a5f9b0238a6a00cd3ec',
    },
    {
      name: 'janus_1.4.1+ds.orig.tar.xz',
      sha256: 'fdfdd9b18419245cc9058912c22c8283c29c230cb07451bc9ece8a39cbdfd2b2',
      sha1: '6ca4fadc06fbb7d25601d8d2ad0d3389e02b6b85',
    },
    {
      name: 'janus_1.4.1+ds-4.debian.tar.xz',
      sha256: '1552ae4a689133d1d944c6c6ce0e6af5f481421e1492b0437dfa0a9100a6e7d9',
      sha1: '81b9b51b911a165bd2a58f65dcec2deeb5fcfc5e',
    },
  ] satisfies SourceFile[],
  /**
   * Only what the media process uses: the streaming plugin and the HTTP transport. Any change here
   * changes the prefix (see patchedJanusPrefix).
   */
  configure: [
    '--disable-docs',
    '--disable-all-plugins',
    '--enable-plugin-streaming',
    '--disable-all-transports',
    '--enable-rest',
    '--disable-all-handlers',
    '--disable-all-loggers',
    '--disable-data-channels',
    '--disable-turn-rest-api',
    '--disable-post-processing',
  ],
};

export const JANUS_PATCH_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../janus/ice-nack-loop.patch');

/**
 * `/var/lib/reel-live/janus-1.4.1+ds-4-<12 hex>`: the hash covers the source, the patch and the
 * configure line, so each distinct build has its own folder and a present folder is reused as is.
 */
export function patchedJanusPrefix(patch: string = readFileSync(JANUS_PATCH_FILE, 'utf8')): string {
  const hash = createHash('sha256')
    .update(JSON.stringify({ files: JANUS_SOURCE.files.map((f) => f.sha256), configure: JANUS_SOURCE.configure }))
    .update(patch)
    .digest('hex')
    .slice(0, 12);
  return path.join(SYSTEM_DIR, `janus-${JANUS_SOURCE.version}-${hash}`);
}

interface JanusChoice {
  bin: string;
  /** Why this one, for logs and benchmark headers. */
  what: string;
}

/** `JANUS_BIN` when set; else the patched build when it is installed; else Debian's binary. */
export function chooseJanus(env: NodeJS.ProcessEnv = process.env, exists: (file: string) => boolean = existsSync): JanusChoice {
  if (env.JANUS_BIN) return { bin: env.JANUS_BIN, what: 'JANUS_BIN' };
  const patched = path.join(patchedJanusPrefix(), 'bin/janus');
  if (exists(patched)) return { bin: patched, what: `Janus ${JANUS_SOURCE.version} with the NACK fix (apps/media/janus)` };
  return { bin: DEBIAN_JANUS_BIN, what: "Debian's package (the NACK-fixed build is not installed)" };
}

/** `1.4.1` from `janus --version` ("Janus version: 1401 (1.4.1)"), or why not. */
function janusVersion(bin: string): string {
  const out = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return /Janus version: \d+ \(([^)]+)\)/.exec(out.stdout ?? '')?.[1] ?? `unknown (${out.error?.message ?? `exit ${out.status}`})`;
}

/** One line naming the Janus a test or benchmark runs: path, version and why it was picked. */
export function describeJanus(choice: JanusChoice = chooseJanus()): string {
  return `${choice.bin} ${janusVersion(choice.bin)}, ${choice.what}`;
}
