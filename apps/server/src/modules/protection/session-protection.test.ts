/**
 * Player protection in the session rooms (issue 28) at and around every boundary, on a controlled
 * clock: a stricter limit applies to the very next cash in, a raise only after the delay and a
 * confirmation (one second early is refused), the loss and session time limits stop spins, a period
 * resets at its end, a crash between the check and the cash in cannot pass the limit, and the
 * reality check holds a spin until it is acknowledged.
 */
import { describe, expect, it } from 'vitest';
import { Code, type LimitKey } from '@reel/protocol';
import { writeSettings } from '../../../test/helper.js';
import { FakeConnection } from '../../../test/game-connection.js';
import { dyingPool } from '../../../test/doubles/dying-pool.js';
import { useProtectionRoom } from '../../../test/protection-room.js';
import { AppError } from '../../lib/errors.js';
import { machineCredits } from '../ledger/ledger.js';
import { periodBounds } from './limit-periods.js';

const HOUR = 3_600_000;
const room = useProtectionRoom();

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const set = (key: LimitKey, value: number | null) => room.protection.limits.update(room.player, [{ key, value }]);
const limitOf = async (key: LimitKey) => (await room.protection.limits.list(room.player)).find((l) => l.key === key)!;

/** A fresh day: the cash ins of earlier tests lie in another period. */
async function join() {
  const conn = new FakeConnection();
  await room.sessions.join(room.player, room.machine, conn);
  return conn;
}

describe('deposit limits', () => {
  it('a stricter limit applies to the very next cash in, and the refusal says which limit, what is left and when it resets', async () => {
    await set('deposit_day', 100_000);
    await join();
    const usedBefore = (await limitOf('deposit_day')).used;
    await set('deposit_day', usedBefore + 5_000);
    await room.sessions.cashIn(room.player, 3_000, 'dl-1');
    await set('deposit_day', usedBefore + 4_000); // lowered: 10.00 left
    const refused = await refusal(room.sessions.cashIn(room.player, 1_001, 'dl-2'));
    expect(refused.code).toBe(Code.DepositLimitDay);
    expect(refused.params).toEqual({
      limit_key: 'deposit_day',
      limit: ((usedBefore + 4_000) / 100).toFixed(2),
      left: '10.00',
      left_cents: 1_000,
      resets: periodBounds('day', room.nowMs).end.toISOString(),
    });
    expect(await machineCredits(room.t.ctx.db, room.machine)).toBe(3_000);
    await room.sessions.cashIn(room.player, 1_000, 'dl-3'); // exactly what is left
    expect((await refusal(room.sessions.cashIn(room.player, 1, 'dl-4'))).code).toBe(Code.DepositLimitDay);
  });

  it('the lowest applicable limit applies: a weekly limit below the daily one refuses with the weekly code', async () => {
    await join();
    const used = (await limitOf('deposit_week')).used;
    await room.protection.limits.update(room.player, [
      { key: 'deposit_day', value: used + 50_000 },
      { key: 'deposit_week', value: used + 2_000 },
      { key: 'deposit_month', value: used + 90_000 },
    ]);
    const refused = await refusal(room.sessions.cashIn(room.player, 2_001, 'low-1'));
    expect(refused.code).toBe(Code.DepositLimitWeek);
    expect(refused.params.resets).toBe(periodBounds('week', room.nowMs).end.toISOString());
  });

  it('the day resets at 00:00 UTC: 1 ms before it the day is still counted, at it the cash in passes', async () => {
    await join();
    const used = (await limitOf('deposit_day')).used;
    await set('deposit_day', used + 1_000);
    await room.sessions.cashIn(room.player, 1_000, 'reset-1');
    const end = periodBounds('day', room.nowMs).end.getTime();
    room.nowMs = end - 1;
    expect((await refusal(room.sessions.cashIn(room.player, 500, 'reset-2'))).code).toBe(Code.DepositLimitDay);
    room.nowMs = end;
    // A day that starts after the real clock's cash ins: nothing of it used yet.
    await room.sessions.cashIn(room.player, 1_000, 'reset-3');
  });

  it('three cash ins at once against 50.00 left: two of 20.00 pass, one is refused (checked under the lock)', async () => {
    await join();
    const used = (await limitOf('deposit_day')).used;
    await set('deposit_day', used + 5_000);
    const results = await Promise.allSettled([1, 2, 3].map((n) => room.sessions.cashIn(room.player, 2_000, `race-${n}`)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect((await limitOf('deposit_day')).used).toBe(used + 4_000);
  });
});

describe('raising or removing a limit', () => {
  it('waits LIMIT_INCREASE_DELAY_H and a confirmation: one second early is refused, at the hour it applies', async () => {
    await set('deposit_day', 5_000);
    const requestedAt = room.nowMs;
    await set('deposit_day', 20_000);
    const waiting = await limitOf('deposit_day');
    expect(waiting.value).toBe(5_000);
    expect(waiting.pending).toEqual({
      value: 20_000,
      requestedAt: new Date(requestedAt).toISOString(),
      confirmableAt: new Date(requestedAt + 24 * HOUR).toISOString(),
    });
    room.nowMs = requestedAt + 24 * HOUR - 1_000;
    const early = await refusal(room.protection.limits.confirm(room.player, 'deposit_day'));
    expect(early.code).toBe(Code.LimitRaiseNotDue);
    expect(early.params).toEqual({ limit_key: 'deposit_day', at: new Date(requestedAt + 24 * HOUR).toISOString() });
    expect((await limitOf('deposit_day')).value).toBe(5_000);
    room.nowMs = requestedAt + 24 * HOUR;
    await room.protection.limits.confirm(room.player, 'deposit_day');
    expect(await limitOf('deposit_day')).toMatchObject({ value: 20_000, pending: null });
  });

  it('an unconfirmed raise never applies, however long it waits', async () => {
    await join();
    await set('deposit_day', 1_000);
    await set('deposit_day', 100_000);
    // Thirty days on (a day with nothing cashed in yet): still the old limit.
    room.nowMs += 30 * 24 * HOUR;
    expect((await limitOf('deposit_day')).value).toBe(1_000);
    expect((await refusal(room.sessions.cashIn(room.player, 1_001, 'unconfirmed'))).code).toBe(Code.DepositLimitDay);
  });

  it('a removal waits like a raise; LIMIT_INCREASE_DELAY_H 72 is honoured; a stricter value meanwhile cancels the wait', async () => {
    writeSettings(room.t.ctx, { LIMIT_INCREASE_DELAY_H: 72 });
    await set('loss_week', 10_000);
    const requestedAt = room.nowMs;
    await set('loss_week', null);
    expect((await limitOf('loss_week')).pending).toMatchObject({ value: null, confirmableAt: new Date(requestedAt + 72 * HOUR).toISOString() });
    room.nowMs = requestedAt + 72 * HOUR - 1_000;
    expect((await refusal(room.protection.limits.confirm(room.player, 'loss_week'))).code).toBe(Code.LimitRaiseNotDue);
    room.nowMs = requestedAt + 72 * HOUR;
    await room.protection.limits.confirm(room.player, 'loss_week');
    expect((await limitOf('loss_week')).value).toBeNull();

    await set('loss_week', 10_000);
    await set('loss_week', 50_000);
    await set('loss_week', 8_000);
    expect(await limitOf('loss_week')).toMatchObject({ value: 8_000, pending: null });
    expect((await refusal(room.protection.limits.confirm(room.player, 'loss_week'))).code).toBe(Code.NoPendingLimit);
  });
});

describe('loss and session time limits stop spins', () => {
  it('a loss limit stops the spin its bet would pass, and says which limit and when it resets', async () => {
    await join();
    const lost = (await limitOf('loss_day')).used;
    await set('loss_day', lost + 250); // bets of 1.00: two spins, then 0.50 left
    await room.sessions.cashIn(room.player, 1_000, 'loss-in');
    room.cabinets.nextWins = [0, 0, 0];
    await room.sessions.spin(room.player, 'l-1');
    await room.sessions.spin(room.player, 'l-2');
    await room.sessions.drain();
    const refused = await refusal(room.sessions.spin(room.player, 'l-3'));
    expect(refused.code).toBe(Code.LossLimitDay);
    expect(refused.params).toMatchObject({ limit_key: 'loss_day', left: '0.50', resets: periodBounds('day', room.nowMs).end.toISOString() });
    expect((await refusal(room.sessions.autoplay(room.player, 'auto', true))).code).toBe(Code.LossLimitDay);
    // Cashing out is never refused.
    await room.sessions.cashOut(room.player);
    expect(await machineCredits(room.t.ctx.db, room.machine)).toBe(0);
  });

  it('the session time limit: a spin 1 ms before it passes, at it spins and cash ins are refused', async () => {
    const conn = await join();
    await set('session_minutes', 30);
    await room.sessions.cashIn(room.player, 500, 'time-in');
    const started = await room.startedAt(conn.last('joined').session.sessionId);
    room.nowMs = started + 30 * 60_000 - 1;
    room.cabinets.nextWins = [0];
    await room.sessions.spin(room.player, 't-1');
    room.nowMs = started + 30 * 60_000;
    const refused = await refusal(room.sessions.spin(room.player, 't-2'));
    expect(refused.code).toBe(Code.SessionTimeLimit);
    expect(refused.params).toEqual({ limit_key: 'session_minutes', minutes: 30 });
    expect((await refusal(room.sessions.cashIn(room.player, 100, 'time-late'))).code).toBe(Code.SessionTimeLimit);
  });
});

describe('a crash between the limit check and the cash in', () => {
  it('rolls both back: the server that comes back still refuses a cash in past the limit', async () => {
    await join();
    const used = (await limitOf('deposit_day')).used;
    await set('deposit_day', used + 1_000);
    // This server's database connection dies right after the limit check, at the ledger's write.
    await room.restart(dyingPool(room.t.ctx.db, /INSERT INTO ledger_operations/));
    await room.sessions.join(room.player, room.machine, new FakeConnection());
    await expect(room.sessions.cashIn(room.player, 1_000, 'crash-1')).rejects.toThrow('killed');
    await room.restart();
    await room.sessions.join(room.player, room.machine, new FakeConnection());
    expect((await limitOf('deposit_day')).used).toBe(used);
    await room.sessions.cashIn(room.player, 1_000, 'crash-2');
    expect((await refusal(room.sessions.cashIn(room.player, 1, 'crash-3'))).code).toBe(Code.DepositLimitDay);
  });
});

describe('the reality check', () => {
  it('holds the spin at the interval (not 1 ms before) with the summary, until acknowledged; the next counts from the acknowledgement', async () => {
    const conn = await join();
    const sessionId = conn.last('joined').session.sessionId as string;
    await room.protection.realityChecks.setMinutes(room.player, 2);
    await room.sessions.cashIn(room.player, 1_000, 'rc-in');
    const started = await room.startedAt(sessionId);
    room.cabinets.nextWins = [0, 300, 0, 0];
    room.nowMs = started + 2 * 60_000 - 1;
    await room.sessions.spin(room.player, 'rc-1');
    await room.sessions.spin(room.player, 'rc-2');
    await room.sessions.drain();
    room.nowMs = started + 2 * 60_000;
    const held = await refusal(room.sessions.spin(room.player, 'rc-3'));
    expect(held.code).toBe(Code.RealityCheckDue);
    expect(held.params).toEqual({ minutes: 2, elapsed_s: 120, spins: 2, money_in: '10.00', money_out: '0.00', net: '1.00' });
    // Still held until the player answers.
    room.nowMs += 30_000;
    expect((await refusal(room.sessions.spin(room.player, 'rc-4'))).code).toBe(Code.RealityCheckDue);
    await room.protection.realityChecks.acknowledge(room.player);
    const acknowledgedAt = room.nowMs;
    await room.sessions.spin(room.player, 'rc-5');
    room.nowMs = acknowledgedAt + 2 * 60_000 - 1;
    await room.sessions.spin(room.player, 'rc-6');
    room.nowMs = acknowledgedAt + 2 * 60_000;
    expect((await refusal(room.sessions.spin(room.player, 'rc-7'))).code).toBe(Code.RealityCheckDue);
  });

  it('counts the interval in REALITY_CHECK_UNIT_S seconds (a test setting), 60 minutes by default', async () => {
    writeSettings(room.t.ctx, { REALITY_CHECK_UNIT_S: 1 });
    const conn = await join();
    await room.sessions.cashIn(room.player, 500, 'unit-in');
    const started = await room.startedAt(conn.last('joined').session.sessionId);
    room.cabinets.nextWins = [0];
    room.nowMs = started + 59_999;
    await room.sessions.spin(room.player, 'unit-1');
    room.nowMs = started + 60_000;
    expect((await refusal(room.sessions.spin(room.player, 'unit-2'))).params).toMatchObject({ minutes: 60, elapsed_s: 60 });
  });
});

describe('jurisdiction rules', () => {
  it('MIN_SPIN_INTERVAL_MS: a spin 1 ms inside the interval after the last start is refused, at the interval it passes', async () => {
    writeSettings(room.t.ctx, { MIN_SPIN_INTERVAL_MS: 2_500 });
    await join();
    await room.sessions.cashIn(room.player, 1_000, 'pace-in');
    room.cabinets.nextWins = [0, 0, 0];
    const first = room.nowMs;
    await room.sessions.spin(room.player, 'pace-1');
    room.nowMs = first + 2_499;
    const early = await refusal(room.sessions.spin(room.player, 'pace-2'));
    expect(early.code).toBe(Code.SpinTooSoon);
    expect(early.params).toEqual({ wait_ms: 1 });
    room.nowMs = first + 2_500;
    await room.sessions.spin(room.player, 'pace-3');
    // A refused spin did not start: the interval counts from the last one that did.
    room.nowMs = first + 2_500 + 2_499;
    expect((await refusal(room.sessions.spin(room.player, 'pace-4'))).params).toEqual({ wait_ms: 1 });
  });

  it('AUTOPLAY_ALLOWED off: turning autoplay on is refused, turning it off never is', async () => {
    writeSettings(room.t.ctx, { AUTOPLAY_ALLOWED: false });
    await join();
    await room.sessions.cashIn(room.player, 500, 'auto-in');
    expect((await refusal(room.sessions.autoplay(room.player, 'auto-on', true))).code).toBe(Code.AutoplayNotAllowed);
    await room.sessions.autoplay(room.player, 'auto-off', false);
    // Only the turning off reached the machine.
    expect(room.cabinets.commands.filter((c) => c.type === 'autoplay').map((c) => c.commandId)).toEqual([expect.stringMatching(/:auto-off$/)]);
  });
});
