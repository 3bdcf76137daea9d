/**
 * The delay/jitter relay's own process (started by relay.ts with an IPC channel; test code, not
 * product). Each `forward` opens a UDP port on the given address; a datagram arriving there from a
 * browser socket goes on to the target (the media server's candidate) from an upstream socket kept
 * for that browser socket, and the target's replies go back the same way. Every datagram, both
 * ways, is held for `delayMs ± jitterMs` (uniform, drawn per packet). With `keepOrder` false (the
 * default, what netem does) a packet is sent when its own delay is up, so packets reorder whenever
 * the jitter exceeds the gap between them; with `keepOrder` true it also waits for the packet ahead.
 * STUN, DTLS, RTP and RTCP (NACK, PLI, transport-cc feedback) share the one rtcp-mux'd 5-tuple, so
 * all of them cross the relay; it counts each kind per direction.
 *
 * Runs in its own process (at a raised priority when root) so the bench's own work (Playwright, the
 * harness) cannot hold packets, and exits when the parent goes (the IPC channel closes), however
 * the parent ends. What it really held each packet (timer lateness included) is in its stats.
 */
import dgram from 'node:dgram';
import { setPriority } from 'node:os';

export interface RelayConfig {
  delayMs: number;
  jitterMs: number;
  keepOrder: boolean;
}

export interface KindCounts {
  packets: number;
  bytes: number;
  stun: number;
  dtls: number;
  rtp: number;
  rtcp: number;
  /** RTCP (compound) packets that open with a receiver report. */
  rtcpRr: number;
}

export interface RelayStats {
  /** Browser → media server. */
  toServer: KindCounts;
  /** Media server → browser. */
  toBrowser: KindCounts;
  /** Browser sockets seen (one per peer connection with bundle + rtcp-mux). */
  flows: number;
  /** Hold time actually applied (arrival to send, timer lateness included), ms. */
  heldMs: { n: number; min: number; p50: number; p95: number; max: number };
  /** Packets that left after a later-arriving one of the same direction and flow. */
  reordered: number;
}

export type RelayRequest =
  | { id: number; type: 'forward'; listenHost: string; targetHost: string; targetPort: number }
  | { id: number; type: 'stats'; reset: boolean }
  | { id: number; type: 'close' };

export type RelayReply = { id: number; port?: number; stats?: RelayStats; error?: string };

const config = JSON.parse(process.env.RELAY_CONFIG ?? '{}') as RelayConfig;
const emptyCounts = (): KindCounts => ({ packets: 0, bytes: 0, stun: 0, dtls: 0, rtp: 0, rtcp: 0, rtcpRr: 0 });
let toServer = emptyCounts();
let toBrowser = emptyCounts();
let held: number[] = [];
let reordered = 0;
const flows = new Set<string>();
const sockets: dgram.Socket[] = [];

/** RFC 7983 demultiplexing by the first byte; RTCP by payload type 192–223 (rtcp-mux, RFC 5761). */
function count(c: KindCounts, msg: Buffer): void {
  c.packets++;
  c.bytes += msg.length;
  const b = msg[0] ?? 0;
  if (b <= 3) c.stun++;
  else if (b >= 20 && b <= 63) c.dtls++;
  else if (b >= 128 && b <= 191) {
    const pt = (msg[1] ?? 0) & 0x7f;
    if (pt >= 64 && pt <= 95) {
      c.rtcp++;
      if (msg[1] === 201) c.rtcpRr++;
    }
    else c.rtp++;
  }
}

/** One direction of one flow: schedules sends after the drawn delay, in or out of order. */
function lane(send: (msg: Buffer) => void): (msg: Buffer) => void {
  let lastDue = 0;
  let lastSeq = 0;
  let sentSeq = 0;
  const queue: { due: number; msg: Buffer; at: number }[] = [];
  let timer: NodeJS.Timeout | null = null;
  const emit = (msg: Buffer, at: number, seq: number) => {
    if (seq < sentSeq) reordered++;
    sentSeq = Math.max(sentSeq, seq);
    if (held.length < 500_000) held.push(performance.now() - at);
    send(msg);
  };
  const drain = () => {
    timer = null;
    const now = performance.now();
    while (queue.length > 0 && queue[0]!.due <= now + 0.5) {
      const p = queue.shift()!;
      emit(p.msg, p.at, ++sentSeq);
    }
    if (queue.length > 0) timer = setTimeout(drain, Math.max(0, queue[0]!.due - now));
  };
  return (msg) => {
    const at = performance.now();
    const delay = config.delayMs + (Math.random() * 2 - 1) * config.jitterMs;
    if (config.keepOrder) {
      lastDue = Math.max(at + delay, lastDue);
      queue.push({ due: lastDue, msg, at });
      timer ??= setTimeout(drain, Math.max(0, queue[0]!.due - at));
    } else {
      const seq = ++lastSeq;
      setTimeout(() => emit(msg, at, seq), delay);
    }
  };
}

async function forward(listenHost: string, targetHost: string, targetPort: number): Promise<number> {
  const listener = dgram.createSocket('udp4');
  sockets.push(listener);
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.bind(0, listenHost, () => resolve());
  });
  const upstreams = new Map<string, (msg: Buffer) => void>();
  listener.on('message', (msg, from) => {
    const key = `${from.address}:${from.port}`;
    let up = upstreams.get(key);
    if (!up) {
      const socket = dgram.createSocket('udp4');
      sockets.push(socket);
      socket.bind(0);
      const back = lane((m) => listener.send(m, from.port, from.address));
      socket.on('message', (m, src) => {
        if (src.port !== targetPort) return;
        count(toBrowser, m);
        back(m);
      });
      socket.on('error', () => {});
      up = lane((m) => socket.send(m, targetPort, targetHost));
      upstreams.set(key, up);
      flows.add(`${listener.address().port}<-${key}`);
    }
    count(toServer, msg);
    up(msg);
  });
  listener.on('error', () => {});
  return listener.address().port;
}

function stats(reset: boolean): RelayStats {
  const s = [...held].sort((a, b) => a - b);
  const at = (p: number) => (s.length ? s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]! : NaN);
  const out: RelayStats = {
    toServer,
    toBrowser,
    flows: flows.size,
    heldMs: { n: s.length, min: s[0] ?? NaN, p50: at(0.5), p95: at(0.95), max: s[s.length - 1] ?? NaN },
    reordered,
  };
  if (reset) {
    toServer = emptyCounts();
    toBrowser = emptyCounts();
    held = [];
    reordered = 0;
  }
  return out;
}

function shutdown(): void {
  for (const s of sockets)
    try {
      s.close();
    } catch {
      // closed
    }
  process.exit(0);
}

// The relay stands for the network: a busy machine should not add to its delay (root may raise it).
try {
  setPriority(-10);
} catch {
  // not root: normal priority
}
process.on('disconnect', shutdown);
process.on('message', (req: RelayRequest) => {
  const reply = (r: Omit<RelayReply, 'id'>) => process.send?.({ id: req.id, ...r });
  if (req.type === 'forward')
    forward(req.listenHost, req.targetHost, req.targetPort).then(
      (port) => reply({ port }),
      (error: unknown) => reply({ error: String(error) }),
    );
  else if (req.type === 'stats') reply({ stats: stats(req.reset) });
  else {
    reply({});
    shutdown();
  }
});
process.send?.({ id: 0 });
