/**
 * Which Janus the media process runs, and where a Janus binary keeps its plugins.
 *
 * The scale path runs Janus built from Debian's own source package of 1.4.1 with the patches in
 * `apps/media/janus` (the NACK fix, one loop wake-up an iteration) and linked to libsrtp2 built from
 * Debian's source on OpenSSL (docs/video.md, "Janus (scale path)"), installed by
 * `ensurePatchedJanus` (janus-build.ts) under a prefix named after the sources, the patches and the
 * configure lines, so a changed patch or configure line is a new prefix and never a stale build. When that build is
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

/** A file of a Debian source package, checked by its SHA-256 before use. */
interface SourceFile {
  name: string;
  sha256: string;
  /** For snapshot.debian.org's by-hash address, once the pool no longer carries the file. */
  sha1: string;
}

/** Debian's source package of Janus 1.4.1 (unstable, 2026), as `apt-get source janus=1.4.1+ds-4` fetches it. */
export const JANUS_SOURCE = {
  version: '1.4.1+ds-4',
  pool: 'http://deb.debian.org/debian/pool/main/j/janus/',
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

/**
 * libsrtp2 as Debian ships it (bookworm's 2.5.0-3), but on OpenSSL, as Janus' README recommends:
 * Debian builds it on NSS, which sets up a cipher context for every packet (about a tenth of
 * Janus' CPU with viewers attached, docs/benchmarks.md). Built static and linked into Janus only.
 */
export const LIBSRTP_SOURCE = {
  version: '2.5.0-3',
  pool: 'http://deb.debian.org/debian/pool/main/libs/libsrtp2/',
  dsc: 'libsrtp2_2.5.0-3.dsc',
  files: [
    {
      name: 'libsrtp2_2.5.0-3.dsc',
      sha256: '3b77c17dc1cf3135fbdaaf4cb0c5f4ae69793dd4cea63b9e466286e7687c861e',
      sha1: '85211ee31684b486968cdf84656879ffa5512bd3',
    },
    {
      name: 'libsrtp2_2.5.0.orig.tar.gz',
      sha256: '8a43ef8e9ae2b665292591af62aa1a4ae41e468b6d98d8258f91478735da4e09',
      sha1: 'af805be67b47d7e376c0c1d8c675502684902b74',
    },
    {
      name: 'libsrtp2_2.5.0-3.debian.tar.xz',
      sha256: '3a3cafa12033d32cd0d5ad4d78f102bc6d998f7d67a17f262c436d0734865af4',
      sha1: '395db63356acb7940c0fafae933eb9aaa5db69b2',
    },
  ] satisfies SourceFile[],
  // -fPIC: the archive is linked into Debian's position-independent executables.
  configure: ['--enable-openssl', 'CFLAGS=-O2 -fPIC'],
};

/** Applied in this order. */
export const JANUS_PATCH_FILES = ['ice-nack-loop.patch', 'ice-loop-wakeups.patch'].map((name) =>
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../janus', name),
);
const readPatches = () => JANUS_PATCH_FILES.map((file) => readFileSync(file, 'utf8')).join('\n');

/**
 * Why the Janus at `bin` does not take its SRTP from the libsrtp2 built on OpenSSL, or null when it
 * does: linking Debian's libsrtp2.so (on NSS) is what the build must not end with.
 */
export function srtpLinkProblem(bin: string): string | null {
  const linked = spawnSync('ldd', [bin], { encoding: 'utf8' }).stdout;
  if (/libsrtp2\.so|libnss3\.so/.test(linked)) return "links Debian's libsrtp2 (on NSS), not the one built on OpenSSL";
  if (!/libcrypto\.so/.test(linked)) return "does not link OpenSSL's libcrypto";
  return null;
}

/**
 * `/var/lib/reel-live/janus-1.4.1+ds-4-<12 hex>`: the hash covers both sources, the patches and the
 * configure lines, so each distinct build has its own folder and a present folder is reused as is.
 */
export function patchedJanusPrefix(patches: string = readPatches()): string {
  const hash = createHash('sha256')
    .update(JSON.stringify({ files: JANUS_SOURCE.files.map((f) => f.sha256), configure: JANUS_SOURCE.configure }))
    .update(JSON.stringify({ files: LIBSRTP_SOURCE.files.map((f) => f.sha256), configure: LIBSRTP_SOURCE.configure }))
    .update(patches)
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
  if (exists(patched)) return { bin: patched, what: `Janus ${JANUS_SOURCE.version} with our patches (apps/media/janus), libsrtp2 ${LIBSRTP_SOURCE.version} on OpenSSL` };
  return { bin: DEBIAN_JANUS_BIN, what: "Debian's package (the patched build is not installed)" };
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
