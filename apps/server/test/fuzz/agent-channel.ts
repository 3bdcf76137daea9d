/**
 * The cabinet channel (`/ws/agent`) under fuzzed messages built from its schemas
 * (packages/protocol/src/agent-schemas.ts). A third of the sockets send them without a hello, a
 * third after a hello, a third after also authenticating a real machine with its real key, so the
 * fuzzed reports (state, meters, cycles, command results, snapshots) reach the hub's handlers for a
 * machine it knows. A failure is a connection that cannot open, an abnormal close, or (judged by
 * the caller) a server that stops answering or books that no longer balance.
 */
import fc from 'fast-check';
import { AGENT_PROTOCOL_VERSION, AGENT_WS_PATH, AgentClientSchemas, AgentCloseCode } from '@reel/protocol';
import { TestSocket } from '../ws-client.js';
import { messageArbitrary, type ChannelSchemas } from './messages.js';
import { recordClose, recordFailure, recordJoin, stats, type FuzzReport } from './report.js';

const CHANNEL = 'WS /ws/agent';
const NORMAL_CLOSES = new Set<number>([1000, 1001, 1005, 1009, ...Object.values(AgentCloseCode)]);

interface AgentTarget {
  port: number;
  machineKeys: Record<number, string>;
}

export async function fuzzAgentChannel(target: AgentTarget, sockets: number, perSocket: number, seed: number, report: FuzzReport) {
  const [machineId, key] = Object.entries(target.machineKeys).map(([id, machineKey]) => [Number(id), machineKey] as const)[0]!;
  const hints = {
    machineId: fc.constantFrom(machineId, machineId, machineId + 1, 2_147_483_647),
    key: fc.constantFrom(key, 'not-the-key'),
    protocol: fc.constantFrom(AGENT_PROTOCOL_VERSION, AGENT_PROTOCOL_VERSION, 99),
  };
  const batches = fc.sample(
    fc.array(messageArbitrary(AgentClientSchemas as unknown as ChannelSchemas, hints), { minLength: perSocket, maxLength: perSocket }),
    { numRuns: sockets, seed: seed + 2000 },
  );
  const entry = stats(report.ws, CHANNEL);
  for (const [i, messages] of batches.entries()) {
    const socket = await TestSocket.open(`ws://127.0.0.1:${target.port}${AGENT_WS_PATH}`).catch((e: unknown) => e as Error);
    if (!(socket instanceof TestSocket)) {
      recordFailure(report, entry, `${CHANNEL}: could not open: ${socket.message}`);
      continue;
    }
    let closeCode: number | null = null;
    void socket.closed.then(({ code }) => (closeCode = code));
    const stage = i % 3;
    if (stage >= 1) {
      const hello = { event: 'hello', data: { protocol: AGENT_PROTOCOL_VERSION, agentId: `fuzzer-${i}`, software: 'fuzzer' } };
      const welcomed = await socket.request(hello, 'welcome', 2_000).then(() => true, () => false);
      recordJoin(report, `${CHANNEL} hello`, welcomed);
    }
    if (stage === 2) {
      const auth = { event: 'auth', data: { machineId, key, videoType: 'screen', bands: [], betLevels: [100], lines: 20 } };
      const result = await socket.request(auth, 'auth_result', 2_000).catch(() => null);
      recordJoin(report, `${CHANNEL} auth`, result?.data.ok === true);
    }
    for (const message of messages) {
      if (closeCode !== null) break;
      socket.send(message);
      entry.requests++;
      await new Promise((r) => setTimeout(r, 10));
    }
    // The hub deals with a connection's messages in order and answers text that is not JSON with
    // an error: once that answer is here, every fuzzed message before it has been handled.
    if (closeCode === null) await socket.request('not json', 'error', 2_000).catch(() => undefined);
    if (closeCode === null) await socket.close();
    recordClose(report, entry, CHANNEL, await socket.closed, NORMAL_CLOSES, messages);
  }
}
