/**
 * The benchmarks `npm run bench` knows (scripts/bench.ts runs them), and the Debian packages each
 * needs: `required` ones it cannot run without, the others add a part (a Janus column, Debian's
 * encoder) and are installed too when running as root, as `npm test` does.
 */
import type { SystemPackage } from './system-packages.js';

const CHROMIUM: SystemPackage = { binary: '/usr/bin/chromium', pkg: 'chromium', why: 'the browser the benchmark drives', required: true };
const FFMPEG: SystemPackage = {
  binary: '/usr/bin/ffmpeg',
  pkg: 'ffmpeg',
  why: "Debian's encoder, the one the published video figures name (without it the cabinets run the bundled build)",
  required: false,
};
const JANUS: SystemPackage = { binary: '/usr/bin/janus', pkg: 'janus', why: 'the Janus (scale path) column', required: false };
const HAPROXY: SystemPackage = { binary: '/usr/sbin/haproxy', pkg: 'haproxy', why: 'the TLS front and the cluster', required: true };

export const BENCHES: { name: string; file: string; what: string; packages?: SystemPackage[] }[] = [
  { name: 'ledger', file: 'apps/server/bench/ledger.ts', what: 'money moves per second vs raw SQL' },
  { name: 'login', file: 'apps/server/bench/login.ts', what: 'sign-in latency, balance requests per second' },
  {
    name: 'web',
    file: 'e2e/bench/web.ts',
    what: 'bundle sizes, Lighthouse, lobby stress',
    packages: [CHROMIUM, HAPROXY, { binary: '/usr/bin/openssl', pkg: 'openssl', why: "the TLS front's certificate", required: true }],
  },
  {
    name: 'video',
    file: 'e2e/bench/video.ts',
    what: 'render-to-present while spinning, first live frame (warm and cold), spin to motion, CPU of process trees',
    packages: [CHROMIUM, FFMPEG, JANUS],
  },
  {
    name: 'fanout',
    file: 'e2e/bench/fanout.ts',
    what: 'media CPU per viewer and viewers per core at the top band, werift vs Janus; one encode per machine; where werift spends its time',
    packages: [FFMPEG, JANUS],
  },
  { name: 'play', file: 'e2e/bench/play.ts', what: 'lobby click to first frame, spin to motion, players per machine', packages: [CHROMIUM, FFMPEG] },
  {
    name: 'smooth',
    file: 'e2e/bench/smooth.ts',
    what: 'freezes and frames decoded in a minute of play on the whole product, per ffmpeg',
    packages: [CHROMIUM, FFMPEG],
  },
  {
    name: 'cluster',
    file: 'apps/server/bench/cluster.ts',
    what: 'three servers: notification fan-out, command round trip across servers, failover',
    packages: [HAPROXY, { binary: '/usr/sbin/nats-server', pkg: 'nats-server', why: 'the bus (when no NATS runs on 127.0.0.1:4222)', required: false }],
  },
  {
    name: 'floor',
    file: 'e2e/bench/floor/floor.ts',
    what: 'playing players per server: M headless machines and players spinning, one server then three, failover, audits',
    packages: [HAPROXY, { binary: '/usr/sbin/nats-server', pkg: 'nats-server', why: 'the bus (when no NATS runs on 127.0.0.1:4222)', required: false }],
  },
  {
    name: 'network',
    file: 'e2e/bench/network.ts',
    what: 'video under packet loss and blackouts (fault rig, needs root), werift vs Janus',
    packages: [
      CHROMIUM,
      FFMPEG,
      JANUS,
      { binary: '/usr/sbin/nft', pkg: 'nftables', why: "the fault rig's packet loss and blackouts", required: true },
      { binary: '/bin/ip', pkg: 'iproute2', why: "the fault rig's network namespace", required: true },
    ],
  },
];
