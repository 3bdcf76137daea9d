/**
 * Autoplay plays on the cabinet by itself: the game that crosses a loss limit, or is stored once the
 * reality check is due, turns it off on the cabinet, and the player is told why with a refused
 * spin's code and Params; so do the player's own stops (spins, loss, single win). On a controlled clock.
 */
import { describe, expect, it } from 'vitest';
import { Code, type AutoplayStops } from '@reel/protocol';
import { FakeConnection } from '../../../test/game-connection.js';
import { useProtectionRoom } from '../../../test/protection-room.js';
import { periodBounds } from './limit-periods.js';

const room = useProtectionRoom();

/** Joins, cashes in 10.00 and turns autoplay on (bets of 1.00; games lose unless `nextWins` say otherwise). */
async function autoplaying(before?: () => Promise<unknown>, stops?: AutoplayStops) {
  const conn = new FakeConnection();
  await room.sessions.join(room.player, room.machine, conn);
  await before?.();
  await room.sessions.cashIn(room.player, 1_000, `ap-in-${room.nowMs}`);
  await room.sessions.autoplay(room.player, 'ap-on', true, stops);
  const sessionId = conn.last('joined').session.sessionId as string;
  const started = await room.startedAt(sessionId);
  return { conn, started };
}

/** The cabinet's autoplay plays one game; resolves once the server has handled it. */
async function autoGame() {
  expect(room.cabinets.autoSpin(room.machine)).toBe(true);
  await room.sessions.drain();
}

const autoplayOn = () => room.cabinets.get(room.machine)!.meters.autoplay;
const stops = () => room.cabinets.commands.filter((c) => c.type === 'autoplay' && c.commandId.includes(':autoplay-stop:'));

describe('the server stops autoplay on the cabinet', () => {
  it('at the game that leaves the loss limit unable to cover the next bet, with the loss limit refusal', async () => {
    const lost = (await room.protection.limits.list(room.player)).find((l) => l.key === 'loss_day')!.used;
    const { conn } = await autoplaying(() => room.protection.limits.update(room.player, [{ key: 'loss_day', value: lost + 250 }]));
    await autoGame(); // 1.50 left: the next bet of 1.00 still fits
    expect(autoplayOn()).toBe(true);
    expect(stops()).toEqual([]);
    await autoGame(); // 0.50 left
    expect(autoplayOn()).toBe(false);
    expect(stops()).toHaveLength(1);
    expect(conn.last('error')).toEqual({
      code: Code.LossLimitDay,
      ErrorMessage: expect.any(String),
      Params: expect.objectContaining({ limit_key: 'loss_day', left: '0.50', resets: periodBounds('day', room.nowMs).end.toISOString() }),
      fatal: false,
    });
  });

  it('at the first game stored once the reality check is due (not 1 ms before), with its summary', async () => {
    const { conn, started } = await autoplaying(() => room.protection.realityChecks.setMinutes(room.player, 2));
    room.nowMs = started + 2 * 60_000 - 1;
    await autoGame();
    expect(autoplayOn()).toBe(true);
    expect(conn.last('error')).toBeUndefined();
    room.nowMs = started + 2 * 60_000;
    await autoGame();
    expect(autoplayOn()).toBe(false);
    expect(conn.last('error')).toEqual({
      code: Code.RealityCheckDue,
      ErrorMessage: expect.any(String),
      Params: { minutes: 2, elapsed_s: 120, spins: 2, money_in: '10.00', money_out: '0.00', net: '-2.00' },
      fatal: false,
    });
  });

  it('at the first game stored once the session time limit has passed', async () => {
    const { conn, started } = await autoplaying(() => room.protection.limits.update(room.player, [{ key: 'session_minutes', value: 30 }]));
    room.nowMs = started + 30 * 60_000;
    await autoGame();
    expect(autoplayOn()).toBe(false);
    expect(conn.last('error')).toMatchObject({ code: Code.SessionTimeLimit, Params: { limit_key: 'session_minutes', minutes: 30 }, fatal: false });
  });
});

describe("autoplay stops at the player's own stops", () => {
  it('the stop reaches the cabinet before the game that reached it is acknowledged (the cabinet starts no paid game before that)', async () => {
    const { cabinets } = room;
    const order: string[] = [];
    const acknowledge = cabinets.acknowledgeCycle.bind(cabinets);
    const send = cabinets.sendCommand.bind(cabinets);
    cabinets.acknowledgeCycle = (machineId, gameId) => {
      order.push('acknowledged');
      acknowledge(machineId, gameId);
    };
    cabinets.sendCommand = (machineId, input, ...rest) => {
      if (input.type === 'autoplay') order.push(`autoplay ${input.on ? 'on' : 'off'}`);
      return send(machineId, input, ...rest);
    };
    try {
      await autoplaying(undefined, { spins: 1 });
      await autoGame();
      expect(order).toEqual(['autoplay on', 'autoplay off', 'acknowledged']);
    } finally {
      cabinets.acknowledgeCycle = acknowledge;
      cabinets.sendCommand = send;
    }
  });

  it('after the chosen number of games, not one sooner (the player\'s spin before autoplay is not one of them)', async () => {
    const conn = new FakeConnection();
    await room.sessions.join(room.player, room.machine, conn);
    await room.sessions.cashIn(room.player, 1_000, 'own-in');
    await room.sessions.spin(room.player, 'own-1');
    await room.sessions.drain();
    await room.sessions.autoplay(room.player, 'ap-3', true, { spins: 3 });
    await autoGame();
    await autoGame();
    expect(autoplayOn()).toBe(true);
    expect(conn.last('info')).toBeUndefined();
    await autoGame();
    expect(autoplayOn()).toBe(false);
    expect(stops()).toHaveLength(1);
    expect(conn.last('info')).toMatchObject({ code: Code.AutoplaySpinsDone, params: { spins: 3 }, action: '' });
  });

  it('once the games since it started lost the chosen amount (wins count against the loss)', async () => {
    room.cabinets.nextWins = [0, 150, 0, 0];
    const { conn } = await autoplaying(undefined, { spins: 100, lossCents: 200 });
    await autoGame(); // lost 1.00
    await autoGame(); // won 1.50 on 1.00: lost 0.50
    await autoGame(); // lost 1.50
    expect(autoplayOn()).toBe(true);
    await autoGame(); // lost 2.50
    expect(autoplayOn()).toBe(false);
    expect(conn.last('info')).toMatchObject({ code: Code.AutoplayLossReached, params: { loss: '2.50', limit: '2.00' } });
  });

  it('after a single win of the chosen amount or more, not one just below it', async () => {
    room.cabinets.nextWins = [499, 500];
    const { conn } = await autoplaying(undefined, { spins: 100, singleWinCents: 500 });
    await autoGame();
    expect(autoplayOn()).toBe(true);
    await autoGame();
    expect(autoplayOn()).toBe(false);
    expect(conn.last('info')).toMatchObject({ code: Code.AutoplayWinReached, params: { win: '5.00', limit: '5.00' } });
  });

  it('a limit refusal wins over a stop reached by the same game', async () => {
    const lost = (await room.protection.limits.list(room.player)).find((l) => l.key === 'loss_day')!.used;
    const { conn } = await autoplaying(() => room.protection.limits.update(room.player, [{ key: 'loss_day', value: lost + 150 }]), { spins: 1 });
    await autoGame();
    expect(autoplayOn()).toBe(false);
    expect(stops()).toHaveLength(1);
    expect(conn.last('error')).toMatchObject({ code: Code.LossLimitDay });
    expect(conn.last('info')).toBeUndefined();
  });
});
