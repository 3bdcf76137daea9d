/** What a fuzz run saw: per endpoint or channel, the requests, the statuses and codes, the failures. */
export interface EndpointStats {
  requests: number;
  statuses: Record<number, number>;
  failures: string[];
}

/** Sockets that were meant to get past the handshake (join a machine, authenticate a cabinet), and how many did. */
export interface Joins {
  planned: number;
  joined: number;
}

export interface FuzzReport {
  seed: number;
  http: Map<string, EndpointStats>;
  ws: Map<string, EndpointStats>;
  joins: Map<string, Joins>;
  failures: string[];
  serverAlive: boolean;
}

export const stats = (map: Map<string, EndpointStats>, name: string) => {
  let entry = map.get(name);
  if (!entry) map.set(name, (entry = { requests: 0, statuses: {}, failures: [] }));
  return entry;
};

export function recordFailure(report: FuzzReport, entry: EndpointStats, line: string) {
  entry.failures.push(line);
  report.failures.push(line);
}

/** Counts a socket's close code, and fails a code outside `normal`. */
export function recordClose(
  report: FuzzReport,
  entry: EndpointStats,
  channel: string,
  closed: { code: number; reason: string },
  normal: ReadonlySet<number>,
  after: unknown[],
) {
  entry.statuses[-closed.code] = (entry.statuses[-closed.code] ?? 0) + 1;
  if (!normal.has(closed.code))
    recordFailure(report, entry, `${channel}: closed ${closed.code} ${closed.reason} after ${JSON.stringify(after).slice(0, 300)}`);
}

export function recordJoin(report: FuzzReport, channel: string, joined: boolean) {
  let entry = report.joins.get(channel);
  if (!entry) report.joins.set(channel, (entry = { planned: 0, joined: 0 }));
  entry.planned++;
  if (joined) entry.joined++;
}

/** The report as a table: requests (or messages) per endpoint, statuses seen, failures. */
export function formatReport(report: FuzzReport): string {
  const lines: string[] = [];
  const section = (title: string, map: Map<string, EndpointStats>, unit: string) => {
    lines.push(`${title}`);
    const width = Math.max(...[...map.keys()].map((k) => k.length), 10);
    for (const [name, entry] of [...map.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const seen = Object.entries(entry.statuses)
        .sort(([a], [b]) => Number(a) - Number(b))
        .map(([status, n]) => `${Number(status) < 0 ? `close ${-Number(status)}` : status}×${n}`)
        .join(' ');
      lines.push(
        `  ${name.padEnd(width)} ${String(entry.requests).padStart(5)} ${unit}  failures ${entry.failures.length}  ${seen}`,
      );
    }
  };
  const total = (map: Map<string, EndpointStats>) => [...map.values()].reduce((n, e) => n + e.requests, 0);
  section('REST endpoints (requests, statuses seen)', report.http, 'req');
  section('WebSocket channels (messages; error codes and close codes seen)', report.ws, 'msg');
  lines.push(
    `handshakes that got through: ${[...report.joins.entries()].map(([name, j]) => `${name} ${j.joined}/${j.planned}`).join(', ')}`,
  );
  const fivexx = [...report.http.values()].reduce(
    (n, e) =>
      n +
      Object.entries(e.statuses)
        .filter(([s]) => Number(s) >= 500)
        .reduce((m, [, c]) => m + c, 0),
    0,
  );
  lines.push(
    `seed ${report.seed}: ${total(report.http)} requests over ${report.http.size} endpoints, ${total(report.ws)} WebSocket messages; ` +
      `5xx ${fivexx}; failures ${report.failures.length}; server ${report.serverAlive ? 'still answers /check' : 'DOWN'}`,
  );
  for (const failure of report.failures.slice(0, 30)) lines.push(`  FAIL ${failure}`);
  return lines.join('\n');
}
