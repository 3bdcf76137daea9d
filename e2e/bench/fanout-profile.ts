/**
 * Where the werift forwarder's time goes, from a V8 CPU profile of the media process
 * (`--cpu-prof`): self time per part (SRTP in werift, node's crypto under it, RTP packet handling,
 * ICE/DTLS, UDP send, our forwarder, GC, idle) and the hottest functions, and the SRTP cost per
 * packet sent.
 */
import fs from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  file: string;
  totalMs: number;
  busyMs: number;
  parts: { part: string; ms: number }[];
  top: { fn: string; ms: number }[];
}

/** The part of the forwarder a function belongs to, by its source file. */
function partOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)') return 'V8/native (program)';
  if (/werift\/lib\/rtp\/src\/srtp\//.test(url) || /werift\/lib\/dtls\/src\/context\/srtp/.test(url)) return 'SRTP/SRTCP (werift JS)';
  if (/node:internal\/crypto|node:crypto/.test(url)) return 'crypto (node: cipher, HMAC)';
  if (/werift\/lib\/rtp\//.test(url)) return 'RTP/RTCP packets (werift)';
  if (/werift\/lib\/(ice|dtls|sctp)\//.test(url)) return 'ICE/DTLS (werift)';
  // werift 0.24 ships one bundle (werift/lib/index.mjs): its parts are told by function name.
  if (/werift\/lib\/index\.mjs/.test(url)) return weriftPartOf(functionName);
  if (/werift\/lib\/webrtc\//.test(url)) return 'peer connection, sender (werift)';
  if (/node:dgram|node:internal\/dgram|udp/.test(url)) return 'UDP send/receive (node)';
  if (/apps\/media\//.test(url)) return 'forwarder (apps/media)';
  if (/^node:/.test(url)) return 'node internals (other)';
  return 'other';
}

function weriftPartOf(fn: string): string {
  if (/srtp|srtcp|protect|cipher|keystream|encrypt|decrypt|hmac|authTag|generateCounter|aes/i.test(fn)) return 'SRTP/SRTCP (werift JS)';
  if (/rtp|rtcp|nack|twcc|pli|remb|receiverReport|senderReport|header|extension|serialize|payload/i.test(fn)) return 'RTP/RTCP packets (werift)';
  if (/ice|stun|candidate|dtls|sctp|turn|transport/i.test(fn)) return 'ICE/DTLS (werift)';
  return 'werift (other)';
}

export function summarizeProfile(file: string): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const parts = new Map<string, number>();
  const fns = new Map<string, number>();
  let totalUs = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    totalUs += us;
    const part = partOf(frame);
    parts.set(part, (parts.get(part) ?? 0) + us);
    if (part === 'idle') continue;
    const name = `${frame.functionName || '(anonymous)'} ${frame.url ? `${path.basename(frame.url)}:${frame.lineNumber + 1}` : ''}`.trim();
    fns.set(name, (fns.get(name) ?? 0) + us);
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return {
    file,
    totalMs: totalUs / 1000,
    busyMs: (totalUs - (parts.get('idle') ?? 0)) / 1000,
    parts: sorted(parts).map(([part, us]) => ({ part, ms: us / 1000 })),
    top: sorted(fns).slice(0, 12).map(([fn, us]) => ({ fn, ms: us / 1000 })),
  };
}

/** The profile the process `pid` wrote into `dir` (node names it CPU.<date>.<time>.<pid>.<n>.<seq>.cpuprofile). */
export function profileOf(dir: string, pid: number): string | null {
  const name = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile') && f.split('.')[3] === String(pid));
  return name ? path.join(dir, name) : null;
}

export function printProfile(summary: ProfileSummary, packetsSent: number): void {
  const srtpMs = summary.parts.filter((p) => /SRTP|crypto/.test(p.part)).reduce((a, p) => a + p.ms, 0);
  console.log(`werift profile (${path.basename(summary.file)}): ${summary.busyMs.toFixed(0)} ms busy of ${summary.totalMs.toFixed(0)} ms sampled, ${packetsSent} RTP packets sent to viewers meanwhile`);
  for (const p of summary.parts.filter((part) => part.part !== 'idle')) console.log(`  ${p.part.padEnd(36)} ${p.ms.toFixed(0).padStart(7)} ms  ${((p.ms / Math.max(1, summary.busyMs)) * 100).toFixed(1).padStart(5)} % of busy`);
  if (packetsSent > 0)
    console.log(`  SRTP (werift JS + node crypto) per packet sent: ${((srtpMs * 1000) / packetsSent).toFixed(1)} µs; everything per packet: ${((summary.busyMs * 1000) / packetsSent).toFixed(1)} µs`);
  console.log('  hottest functions (self time):');
  for (const f of summary.top) console.log(`    ${f.ms.toFixed(0).padStart(6)} ms  ${f.fn}`);
}
