/**
 * The configuration Janus runs with, written to its temp folder at start: only the streaming
 * plugin and the HTTP transport on 127.0.0.1, a NACK queue long enough for lossy links, the
 * slowlink threshold the automatic bands read, and the STUN server the viewers are given.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IceServer } from '@reel/protocol';
import { SLOWLINK_THRESHOLD } from './janus-link.js';

const UNUSED_PLUGINS = [
  'audiobridge',
  'duktape',
  'echotest',
  'lua',
  'nosip',
  'recordplay',
  'sip',
  'textroom',
  'videocall',
  'videoroom',
  'voicemail',
];
const UNUSED_TRANSPORTS = ['websockets', 'pfunix', 'mqtt', 'nanomsg', 'rabbitmq'];

/**
 * How many shared event loops carry the viewers' media: one a core by default. Janus' own default,
 * a thread per viewer, spent 38-44 % more CPU a viewer in wake-ups and context switches (npm run
 * bench -- fanout, docs/benchmarks.md). JANUS_EVENT_LOOPS=n sets n; 0 is Janus' thread per viewer.
 */
export function janusEventLoops(): number {
  const set = process.env.JANUS_EVENT_LOOPS ?? '';
  return /^\d+$/.test(set) ? Number(set) : os.availableParallelism();
}

export function writeJanusConfig(
  dir: string,
  options: { lib: string; httpPort: number; iceServers: IceServer[] },
): void {
  const { lib, httpPort } = options;
  const loops = janusEventLoops();
  const stun = options.iceServers
    .flatMap((s) => (Array.isArray(s.urls) ? s.urls : [s.urls]))
    .find((u) => u.startsWith('stun:'));
  const [stunHost, stunPort] = stun ? stun.slice(5).split(':') : [];
  writeFileSync(
    path.join(dir, 'janus.jcfg'),
    `general: {
  configs_folder = "${dir}"
  plugins_folder = "${lib}/plugins"
  transports_folder = "${lib}/transports"
  events_folder = "${lib}/events"
  loggers_folder = "${lib}/loggers"
  debug_level = 2
  session_timeout = 30
  ${loops > 0 ? `event_loops = ${loops}` : ''}
}
media: {
  rtp_port_range = "30000-40000"
  # Retransmissions: keep at least a second of sent packets per viewer for NACKs (the default
  # 200 ms is shorter than a retransmission round on a lossy Wi-Fi link; Janus grows it with the
  # RTT). Retransmissions go on the video SSRC: Janus 1.4.1 gets offers without RTX (janus-sdp.ts).
  min_nack_queue = 1000
  # A viewer losing this many video packets a second gets a slowlink event: its link quality for
  # the automatic bands (janus-link.ts).
  slowlink_threshold = ${SLOWLINK_THRESHOLD}
}
nat: {
  nice_debug = false
  ${stunHost ? `stun_server = "${stunHost}"\n  stun_port = ${stunPort ?? 3478}` : ''}
}
plugins: { disable = "${UNUSED_PLUGINS.map((p) => `libjanus_${p}.so`).join(',')}" }
transports: { disable = "${UNUSED_TRANSPORTS.map((p) => `libjanus_${p}.so`).join(',')}" }
loggers: { disable = "libjanus_jsonlog.so" }
events: { broadcast = false }
`,
  );
  writeFileSync(path.join(dir, 'janus.plugin.streaming.jcfg'), 'general: {\n  string_ids = false\n}\n');
  writeFileSync(
    path.join(dir, 'janus.transport.http.jcfg'),
    `general: {
  json = "plain"
  base_path = "/janus"
  http = true
  port = ${httpPort}
  ip = "127.0.0.1"
  https = false
}
admin: { admin_http = false }
`,
  );
}
