/**
 * HAProxy in front of the cluster's servers: HTTP and WebSockets on one port, round robin, no
 * sticky sessions (any server serves any player), health checks on `/check`. A server marked down
 * has its open connections cut at once, so the browsers' sockets reconnect to a live one.
 */
interface HaproxyOptions {
  port: number;
  bind?: string;
  servers: { id: string; port: number }[];
  /** Most concurrent connections (each WebSocket is one on each side). */
  maxconn?: number;
}

export function haproxyConfig(opts: HaproxyOptions): string {
  const maxconn = opts.maxconn ?? 20_000;
  return [
    // No global maxconn: HAProxy derives it from its file descriptor limit (ulimit -n).
    'global',
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
    `  bind ${opts.bind ?? '127.0.0.1'}:${opts.port}`,
    `  maxconn ${maxconn}`,
    '  default_backend servers',
    '',
    'backend servers',
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
  ].join('\n');
}
