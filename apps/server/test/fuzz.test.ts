/**
 * Issue 9, fault suite: a short schema-driven fuzz run over every REST endpoint and every WebSocket
 * client message (browser channels and the cabinet channel) against a real server on a throw-away
 * database. Zero 5xx, zero broken-off or non-JSON error answers, zero internal errors on the
 * sockets; every socket meant to get past the handshake did (joined its machine, got its hello,
 * authenticated its cabinet), so the fuzzing reached the handlers; the server still answers
 * /check; the ledger still balances and every player's money follows the game records. The long
 * run is `npx tsx apps/server/bench/fuzz.ts`. FUZZ_SEED=<n> replays a run; FUZZ_PER_ENDPOINT=<n>
 * makes it longer.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper.js';
import { fuzz } from './fuzz/fuzzer.js';
import { formatReport } from './fuzz/report.js';
import { judgeAfterRun } from './fuzz/verdict.js';
import { fuzzTarget, useFakeCabinets } from './fuzz/target.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const PER_ENDPOINT = Number(process.env.FUZZ_PER_ENDPOINT ?? 10);

let t: TestApp;
let machineIds: number[] = [];
beforeAll(async () => {
  t = await createTestApp(
    (config) => {
      // The fuzzer guesses passwords: keep the demo account usable, and the limits out of the way.
      config.login.maxFailures = 1_000_000;
      config.login.rateLimitPerMinute = 1_000_000;
      config.ws.initTimeoutMs = 1_000;
    },
    async (ctx) => {
      machineIds = await useFakeCabinets(ctx);
    },
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

it('survives schema-driven fuzzing of every endpoint and socket message', { timeout: 240_000 }, async () => {
  const target = await fuzzTarget(t.app, t.ctx, machineIds);
  const report = await fuzz(target, { perEndpoint: PER_ENDPOINT, sockets: 6, perSocket: 15, seed: SEED });
  await judgeAfterRun(t.ctx.db, report);
  console.log(formatReport(report));
  expect(report.http.size).toBeGreaterThanOrEqual(30);
  expect(report.failures).toEqual([]);
  expect(report.serverAlive).toBe(true);
  // Every channel was fuzzed past its handshake, as many times as the fuzzer meant to.
  expect(Object.fromEntries(report.joins)).toEqual({
    'WS /ws/game': { planned: 3, joined: 3 },
    'WS /ws/notifications': { planned: 3, joined: 3 },
    'WS /ws/agent hello': { planned: 4, joined: 4 },
    'WS /ws/agent auth': { planned: 2, joined: 2 },
  });
});
