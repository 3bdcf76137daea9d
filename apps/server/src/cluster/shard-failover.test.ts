/**
 * A shard's owner killed with -9 in the middle of play, on the in-process bus (the parts of three
 * cluster servers, no processes): s1 holds the cabinet and the player's game socket, s2 owns the
 * machine's shard and dies, s3 takes the shard over. The game s2 started just before it died lands
 * while s3 starts the shard (its report reaches s3's manager before the shard's open sessions are
 * loaded): it must count on the player's session. Then the player's socket, closed for the new owner
 * (1012), joins again and cashes out at once: the cash out is answered on the rejoined socket and
 * booked exactly once (issue 31's floor bench: one player's cash out went unanswered because that
 * game was recorded without its session, the meter check then held the session as a malfunction).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Code } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../test/helper.js';
import { FakeCabinets } from '../../test/doubles/fake-cabinets.js';
import { FakeConnection } from '../../test/game-connection.js';
import type { AgentHub } from '../modules/cabinets/agent-hub.js';
import { auditLedger, OperationKind, walletBalance } from '../modules/ledger/ledger.js';
import { auditPlayers } from '../modules/ledger/player-audit.js';
import { relayCabinets } from './cabinet-relay.js';
import { ClusterCabinets } from './cluster-cabinets.js';
import { SessionClient } from './session-rpc.js';
import { ShardOwners } from './shard-owners.js';
import { shardOf } from './shards.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

it('a cash out sent right after a kill -9 of the shard owner, on the rejoined socket, is answered and booked exactly once', async () => {
  const { db, bus } = t.ctx;
  const demo = (await db.query<{ id: number }>("SELECT id FROM players WHERE username = 'demo'")).rows[0]!.id;
  const machine = (await db.query<{ id: number }>('SELECT id FROM machines ORDER BY id LIMIT 1')).rows[0]!.id;
  const shard = shardOf(machine);
  const before = (await walletBalance(db, demo)).balance;

  // s1: the cabinet's agent connection and the player's game socket.
  const hub = new FakeCabinets();
  const relay = relayCabinets(bus, hub as unknown as AgentHub, 's1');
  hub.connect(machine);
  const client = new SessionClient(bus, 's1', async (playerId) =>
    (await db.query<{ machine_id: number }>("SELECT machine_id FROM slot_sessions WHERE player_id = $1 AND status <> 'closed'", [playerId])).rows[0]?.machine_id ?? null,
  );
  // A server's mirror of the cabinets (every server has one); its own hub holds none of them here.
  const mirrorOf = (server: string) => {
    const mirror = new ClusterCabinets(bus, new FakeCabinets() as unknown as AgentHub, server);
    mirror.sync();
    return mirror;
  };

  // s2 owns the shard; the player plays through s1.
  const mirror2 = mirrorOf('s2');
  const s2 = new ShardOwners(t.ctx, mirror2, 's2');
  const s3 = new ShardOwners(t.ctx, mirrorOf('s3'), 's3');
  try {
    await s2.activate(shard, 1);
    await s2.managerOf(machine)!.drain();
    const socket = new FakeConnection();
    await client.join(demo, machine, socket);
    const sessionId = socket.last('joined').session.sessionId as string;
    await client.cashIn(demo, 5_000, 'failover-1');
    hub.nextWins = [0, 300];
    await client.spin(demo, 'spin-1');
    await client.spin(demo, 'spin-2');
    await s2.managerOf(machine)!.drain();

    // kill -9 of s2: from here on it hears nothing and answers nothing (s3's answers replace its own).
    mirror2.stop();
    const taking = s3.activate(shard, 2);
    // The game s2 sent just before it died lands now, while s3 loads the shard's open sessions.
    hub.nextWins = [0];
    await hub.sendCommand(machine, { type: 'spin', commandId: `${sessionId}:spin-3` });
    await taking;

    // s1 closes the socket for the new owner (1012); the player joins again and cashes out at once.
    expect(socket.closedWith).toBe(1012);
    const rejoined = new FakeConnection();
    await client.join(demo, machine, rejoined);
    const credits = hub.get(machine)!.meters.creditsCents;
    expect(credits).toBe(5_000 - 3 * 100 + 300);
    await client.cashOut(demo);
    await s3.managerOf(machine)!.drain();

    expect(rejoined.all('info').filter((i) => i.code === Code.MachineMalfunction)).toEqual([]);
    expect(rejoined.all('cashedOut')).toEqual([{ amountCents: credits, balanceCents: before - 5_000 + credits }]);
    expect((await walletBalance(db, demo)).balance).toBe(before - 5_000 + credits);
    const games = await db.query<{ session_id: string | null }>('SELECT session_id FROM game_cycles WHERE machine_id = $1', [machine]);
    expect(games.rows.map((g) => g.session_id)).toEqual([sessionId, sessionId, sessionId]);
    const cashOuts = await db.query("SELECT status, amount_cents FROM machine_commands WHERE session_id = $1 AND type = 'cash_out'", [sessionId]);
    expect(cashOuts.rows).toEqual([{ status: 'done', amount_cents: credits }]);
    const ops = await db.query<{ kind: string; amount_cents: number }>('SELECT kind, amount_cents FROM ledger_operations WHERE session_id = $1 AND kind = $2', [sessionId, OperationKind.CashOut]);
    expect(ops.rows).toEqual([{ kind: OperationKind.CashOut, amount_cents: credits }]);
    const row = await db.query('SELECT malfunction FROM slot_sessions WHERE id = $1', [sessionId]);
    expect(row.rows[0]).toEqual({ malfunction: null });
    expect((await auditLedger(db)).ok).toBe(true);
    expect((await auditPlayers(db)).ok).toBe(true);

    await client.leave(demo);
  } finally {
    // The dead s2's manager, and s3's, stop their timers.
    await s3.deactivate(shard);
    await s2.deactivate(shard);
    client.stop();
    relay.stop();
  }
});
