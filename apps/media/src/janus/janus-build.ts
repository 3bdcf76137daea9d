/**
 * Builds the scale path's Janus (janus-install.ts says which and why) the same way every time:
 * Debian's source packages of Janus 1.4.1 and libsrtp2 2.5.0 fetched from deb.debian.org
 * (snapshot.debian.org by hash once the pool has moved on), each file checked against its SHA-256,
 * unpacked with Debian's own patches (`dpkg-source -x`); libsrtp2 built static on OpenSSL; Janus
 * with `apps/media/janus/*.patch` applied, configured with the fixed line in JANUS_SOURCE against
 * that libsrtp2, built with SOURCE_DATE_EPOCH from Debian's changelog, and moved into its prefix
 * in one rename (two builds at once: the first rename wins, the other is dropped).
 * A prefix already there is reused. Needs root (apt-get of the build dependencies, /var/lib);
 * without it, or when a step fails, it says why and the media process keeps Debian's Janus.
 * `npm test`, `npm run cluster`, `npm run bench` and `MEDIA_BACKEND=janus npm start` call it;
 * by hand: `sudo npx tsx apps/media/src/janus/janus-build.ts`.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEBIAN_JANUS_BIN, JANUS_PATCH_FILES, JANUS_SOURCE, LIBSRTP_SOURCE, patchedJanusPrefix, srtpLinkProblem } from './janus-install.js';

/** Debian bookworm packages the configure line above needs (and dpkg-source, patch). */
const BUILD_DEPS = [
  'build-essential',
  'dpkg-dev',
  'patch',
  'automake',
  'libtool',
  'pkg-config',
  'gengetopt',
  'libglib2.0-dev',
  'libconfig-dev',
  'libnice-dev',
  'libjansson-dev',
  'libssl-dev',
  'zlib1g-dev',
  'libmicrohttpd-dev',
  // Not needed by this configure line, but the streaming plugin links it when present: installed
  // always, so the build does not depend on what the machine happened to have.
  'libcurl4-openssl-dev',
];
const SNAPSHOT_BY_HASH = 'https://snapshot.debian.org/file/';
const FALLBACK = `Debian's ${DEBIAN_JANUS_BIN} is used instead (bookworm's 1.1.2 freezes on lossy links, docs/video.md)`;

type Log = (line: string) => void;

/** Returns the patched binary, building it when needed; null (having said why) when it cannot. */
export async function ensurePatchedJanus(log: Log = console.log): Promise<string | null> {
  const prefix = patchedJanusPrefix();
  const bin = path.join(prefix, 'bin/janus');
  if (fs.existsSync(bin)) return bin;
  if (process.getuid?.() !== 0) {
    log(`Janus with our patches is not built (${prefix}); building it needs root: sudo npx tsx apps/media/src/janus/janus-build.ts. ${FALLBACK}.`);
    return null;
  }
  fs.mkdirSync(path.dirname(prefix), { recursive: true });
  const work = fs.mkdtempSync(path.join(path.dirname(prefix), '.janus-build-'));
  const buildLog = path.join(work, 'build.log');
  const out = fs.openSync(buildLog, 'a');
  try {
    log(`Building Janus ${JANUS_SOURCE.version} with our patches and libsrtp2 ${LIBSRTP_SOURCE.version} on OpenSSL into ${prefix} (about two minutes; log ${buildLog})…`);
    installBuildDeps();
    for (const source of [JANUS_SOURCE, LIBSRTP_SOURCE]) for (const file of source.files) fs.writeFileSync(path.join(work, file.name), await download(source.pool, file));
    const step = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) => {
      const r = spawnSync(cmd, args, { cwd, stdio: ['ignore', out, out], env: { ...process.env, ...env } });
      if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal}); see ${buildLog}`);
    };
    const srtp = path.join(work, 'libsrtp2');
    const srtpPrefix = path.join(work, 'libsrtp2-prefix');
    step('dpkg-source', ['--no-check', '-x', LIBSRTP_SOURCE.dsc, srtp], work);
    step('./configure', [`--prefix=${srtpPrefix}`, ...LIBSRTP_SOURCE.configure], srtp);
    step('make', [`-j${os.availableParallelism()}`, 'libsrtp2.a'], srtp);
    step('make', ['install'], srtp);
    const src = path.join(work, 'src');
    step('dpkg-source', ['--no-check', '-x', JANUS_SOURCE.dsc, src], work);
    for (const patch of JANUS_PATCH_FILES) step('patch', ['-p1', '--forward', '-i', patch], src);
    const epoch = spawnSync('dpkg-parsechangelog', ['-S', 'Timestamp'], { cwd: src, encoding: 'utf8' }).stdout.trim();
    // Only the static libsrtp2.a is in that prefix, so the link takes it and not a system libsrtp2.so.
    const env = { SOURCE_DATE_EPOCH: epoch, PKG_CONFIG_PATH: path.join(srtpPrefix, 'lib/pkgconfig') };
    step('sh', ['autogen.sh'], src, env);
    step('./configure', [`--prefix=${prefix}`, ...JANUS_SOURCE.configure], src, env);
    step('make', [`-j${os.availableParallelism()}`], src, env);
    step('make', ['install', `DESTDIR=${path.join(work, 'stage')}`], src, env);
    const srtpProblem = srtpLinkProblem(path.join(work, 'stage', prefix, 'bin/janus'));
    if (srtpProblem) throw new Error(`the built Janus ${srtpProblem}`);
    try {
      fs.renameSync(path.join(work, 'stage', prefix), prefix);
    } catch (err) {
      // Another build (a second npm test) finished first: its prefix is the same build.
      if (!fs.existsSync(bin)) throw err;
    }
    log(`Janus ${JANUS_SOURCE.version} with our patches installed: ${bin}`);
    return bin;
  } catch (err) {
    log(`Could not build Janus with our patches: ${err instanceof Error ? err.message : String(err)}. ${FALLBACK}.`);
    return null;
  } finally {
    fs.closeSync(out);
    // Keep a failed build's log; the sources and objects go either way.
    const failed = !fs.existsSync(bin);
    for (const entry of fs.readdirSync(work)) if (!(failed && entry === 'build.log')) fs.rmSync(path.join(work, entry), { recursive: true, force: true });
    if (!failed) fs.rmSync(work, { recursive: true, force: true });
  }
}

function installBuildDeps(): void {
  const installed = (pkg: string) =>
    spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' }).stdout.includes('install ok installed');
  const missing = BUILD_DEPS.filter((p) => !installed(p));
  if (!missing.length) return;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => spawnSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: 'inherit', env }).status === 0;
  // The package lists may be stale on a fresh machine: update only when the install needs it.
  if (install()) return;
  if (spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env }).status !== 0 || !install())
    throw new Error(`apt-get could not install ${missing.join(' ')}`);
}

/** The file from Debian's pool, else from snapshot.debian.org by its SHA-1; refused unless its SHA-256 matches. */
async function download(pool: string, file: (typeof JANUS_SOURCE.files)[number]): Promise<Buffer> {
  const problems: string[] = [];
  for (const url of [pool + file.name, SNAPSHOT_BY_HASH + file.sha1]) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(120_000) });
      if (!res.ok) {
        problems.push(`${url}: HTTP ${res.status}`);
        continue;
      }
      const body = Buffer.from(await res.arrayBuffer());
      const sha256 = createHash('sha256').update(body).digest('hex');
      if (sha256 === file.sha256) return body;
      problems.push(`${url}: SHA-256 ${sha256}, expected ${file.sha256}`);
    } catch (err) {
      problems.push(`${url}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  throw new Error(`could not fetch ${file.name} (${problems.join('; ')})`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit((await ensurePatchedJanus()) ? 0 : 1);
}
