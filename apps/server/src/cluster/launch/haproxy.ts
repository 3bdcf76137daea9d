/**
 * HAProxy in front of the cluster's servers: HTTP and WebSockets on one port (TLS and HTTP/2 when
 * given a certificate), the fewest connections first, no sticky sessions (any server serves any
 * player), health checks on `/check`. A server marked down has its open connections cut at once, so
 * the browsers' sockets reconnect to a live one.
 *
 * A game socket names its machine (`/ws/game?…&machineId=n`) and goes to the owner of the machine's
 * shard: the map file says each shard's backend (`owner-<server>`, kept by owner-map.ts from the
 * owners' announcements), so a player's commands are played on the server they arrive at instead of
 * crossing to another. Each owner backend holds the other servers after the owner: while it is down,
 * or before the map knows the shard, the socket lands on another server, which relays as before.
 */
import { SHARD_COUNT } from '../shards.js';

/** The backend of the game sockets of the shards `server` owns. */
export const ownerBackend = (server: string) => `owner-${server}`;
/** The backend for everything else, and for a shard whose owner the map does not know. */
export const ANY_SERVER = 'servers';
interface HaproxyOptions {
  port: number;
  bind?: string;
  servers: { id: string; port: number }[];
  /** Most concurrent connections (each WebSocket is one on each side). */
  maxconn?: number;
  /**
   * A PEM file holding the certificate and its key: HAProxy then terminates TLS and speaks HTTP/2
   * to browsers (ALPN h2, HTTP/1.1 for clients without it). Browsers use HTTP/2 only over TLS, and
   * over one connection a page's many module files do not each pay for a cold TCP connection.
   */
  tlsPem?: string;
  /**
   * With `tlsPem`: a second, plain bind on 127.0.0.1 for the parts on this machine (the cabinets,
   * readiness checks), which need not trust the certificate.
   */
  internalPort?: number;
  /** The shard → owner backend map (owner-map.ts); without it, game sockets are balanced like the rest. */
  ownerMap?: { mapFile: string; adminSocket: string };
}

export function haproxyConfig(opts: HaproxyOptions): string {
  const maxconn = opts.maxconn ?? 20_000;
  const map = opts.ownerMap;
  return [
    // No global maxconn: HAProxy derives it from its file descriptor limit (ulimit -n).
    'global',
    // The owner map is changed at run time through this socket (only its owner may use it).
    ...(map ? [`  stats socket ${map.adminSocket} mode 600 level admin`] : []),
    '',
    'defaults',
    '  mode http',
    '  option forwardfor',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    // An open WebSocket is a tunnel: the heartbeats (15-25 s) keep it well inside this.
    '  timeout tunnel 1h',
    '  timeout http-request 10s',
    '',
    'frontend web',
    `  bind ${opts.bind ?? '127.0.0.1'}:${opts.port}${opts.tlsPem ? ` ssl crt ${opts.tlsPem} alpn h2,http/1.1` : ''}`,
    ...(opts.tlsPem && opts.internalPort ? [`  bind 127.0.0.1:${opts.internalPort}`] : []),
    `  maxconn ${maxconn}`,
    // The servers see plain HTTP from HAProxy: tell them what the browser used.
    ...(opts.tlsPem ? ['  http-request set-header X-Forwarded-Proto https if { ssl_fc }'] : []),
    ...(map
      ? [
          '  acl game_socket path /ws/game',
          '  acl names_machine url_param(machineId) -m int ge 0',
          `  use_backend %[url_param(machineId),mod(${SHARD_COUNT}),map_int(${map.mapFile},${ANY_SERVER})] if game_socket names_machine`,
        ]
      : []),
    `  default_backend ${ANY_SERVER}`,
    '',
    `backend ${ANY_SERVER}`,
    // WebSockets live long: send each new one to the server with the fewest.
    '  balance leastconn',
    // A server that just died refuses the connection before its health check fails: try another.
    '  retries 3',
    '  option redispatch 1',
    '  option httpchk GET /check',
    '  http-check expect status 200',
    '  default-server inter 1s fastinter 500ms fall 2 rise 2 on-marked-down shutdown-sessions',
    ...opts.servers.map((s) => `  server ${s.id} 127.0.0.1:${s.port} check maxconn ${maxconn}`),
    '',
    ...(map ? opts.servers.flatMap((owner) => ownerBackendConfig(owner.id, opts.servers, maxconn)) : []),
  ].join('\n');
}

/**
 * The owner first (`balance first` takes the lowest id with a free slot), the others, tracking the
 * health checks above, after it: while it is down, and at once for a connection it refuses (a
 * killed owner, before its checks fail), as a retry is redispatched to another server.
 */
function ownerBackendConfig(owner: string, servers: HaproxyOptions['servers'], maxconn: number): string[] {
  const ordered = [...servers.filter((s) => s.id === owner), ...servers.filter((s) => s.id !== owner)];
  return [
    `backend ${ownerBackend(owner)}`,
    '  balance first',
    '  retries 3',
    '  option redispatch 1',
    '  default-server on-marked-down shutdown-sessions',
    ...ordered.map((s, i) => `  server ${s.id} 127.0.0.1:${s.port} track ${ANY_SERVER}/${s.id} maxconn ${maxconn} id ${i + 1}`),
    '',
  ];
}
