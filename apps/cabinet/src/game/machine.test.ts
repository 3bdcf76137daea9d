import { describe, expect, it } from 'vitest';
import type { AgentCommand, AgentMachineState, GameCycle } from '@reel/protocol';
import { SlotMachine } from './machine.js';
import { Rng, type Uint32Source } from './rng.js';
import { FREE_SPINS_AWARD } from '@reel/protocol';
import { acknowledgingEveryGame, findStops } from './test-doubles.js';
import { evaluateStops } from './engine.js';

/** A machine whose games a stand-in server acknowledges as they are reported. */
const newMachine = (opts: ConstructorParameters<typeof SlotMachine>[0]) => acknowledgingEveryGame(new SlotMachine(opts));
const FAST = { spinDurationMs: 5, reelStaggerMs: 1, autoplayGapMs: 2, cashOutDurationMs: 2 };
let seq = 0;
const id = () => `c${++seq}`;

/** Plays back scripted stops; a paid spin also draws the jackpot roll (1 = no jackpot). */
function scripted(paid: number[], free: number[][]): Uint32Source {
  const queue: number[] = [...paid, 1];
  for (const s of free) queue.push(...s);
  return { nextUint32: () => queue.shift() ?? 3 };
}

describe('SlotMachine', () => {
  it('credit in, spin, cash out: meters balance', async () => {
    const m = newMachine({ machineId: 1, timing: FAST });
    const states: AgentMachineState[] = [];
    const cycles: GameCycle[] = [];
    m.on('state', (s) => states.push(s.state));
    m.on('cycle', (c) => cycles.push(c));
    m.announce();
    expect((await m.execute({ commandId: id(), type: 'credit_in', amountCents: 1000 })).creditsCents).toBe(
      1000,
    );
    let wins = 0;
    for (let i = 0; i < 5; i++) {
      const r = await m.execute({ commandId: id(), type: 'spin' });
      expect(r.outcome).toBe('ok');
      expect(r.cycle!.betCents).toBe(20);
      expect(r.cycle!.creditsAfterCents - r.cycle!.creditsBeforeCents).toBe(r.cycle!.winCents - 20);
      wins += r.cycle!.winCents;
      await new Promise((res) => setTimeout(res, 1));
      while (m.state === 'in_bonus') await new Promise((res) => setTimeout(res, 5));
    }
    const freeWins = cycles.filter((c) => c.freeSpin).reduce((a, c) => a + c.winCents, 0);
    expect(m.meters.coinInCents).toBe(100);
    expect(m.meters.coinOutCents).toBe(wins + freeWins);
    expect(m.meters.creditsCents).toBe(1000 - 100 + wins + freeWins);
    const before = m.meters.creditsCents;
    const out = await m.execute({ commandId: id(), type: 'cash_out' });
    expect(out.amountCents).toBe(before);
    expect(m.meters.creditsCents).toBe(0);
    expect(m.meters.cashOutCents).toBe(before);
    expect(m.meters.cashInCents).toBe(1000);
    expect(states[0]).toBe('idle');
    expect(states).toContain('in_game');
    expect(states).toContain('cashing_out');
    expect(states.at(-1)).toBe('idle');
    m.dispose();
  });

  it('runs a duplicated command once and replays the first answer', async () => {
    const m = newMachine({ machineId: 2, timing: FAST });
    const credit: AgentCommand = { commandId: 'dup-credit', type: 'credit_in', amountCents: 500 };
    const [a, b] = await Promise.all([m.execute(credit), m.execute(credit)]);
    const c = await m.execute(credit);
    expect(m.meters.creditsCents).toBe(500);
    expect(a.duplicate).toBeUndefined();
    expect(b.duplicate).toBe(true);
    expect(c).toMatchObject({ outcome: 'ok', creditsCents: 500, duplicate: true });
    const spin: AgentCommand = { commandId: 'dup-spin', type: 'spin' };
    const first = m.execute(spin);
    const again = m.execute(spin);
    const [r1, r2] = await Promise.all([first, again]);
    expect(m.meters.gamesPlayed).toBe(1);
    expect(r2.cycle!.gameId).toBe(r1.cycle!.gameId);
    m.dispose();
  });

  it('answers stale commands without running them, even on retry', async () => {
    const m = newMachine({ machineId: 3, timing: FAST });
    const cmd: AgentCommand = {
      commandId: 'old',
      type: 'credit_in',
      amountCents: 100,
      expiresAtMs: Date.now() - 1,
    };
    expect((await m.execute(cmd)).outcome).toBe('stale');
    expect((await m.execute({ ...cmd, expiresAtMs: Date.now() + 10_000 })).outcome).toBe('stale');
    expect(m.meters.creditsCents).toBe(0);
    m.dispose();
  });

  it('refuses spins without credits, bet changes mid-game and play while faulted', async () => {
    const m = newMachine({ machineId: 4, timing: FAST });
    expect((await m.execute({ commandId: id(), type: 'spin' })).reason).toBe('no_credits');
    expect((await m.execute({ commandId: id(), type: 'set_bet_level', level: 99 })).reason).toBe(
      'invalid_bet_level',
    );
    expect((await m.execute({ commandId: id(), type: 'set_bet_level', level: 2 })).betCents).toBe(100);
    await m.execute({ commandId: id(), type: 'credit_in', amountCents: 50 });
    expect((await m.execute({ commandId: id(), type: 'spin' })).reason).toBe('insufficient_credits');
    await m.execute({ commandId: id(), type: 'credit_in', amountCents: 1000 });
    const spinning = m.execute({ commandId: id(), type: 'spin' });
    expect((await m.execute({ commandId: id(), type: 'set_bet_level', level: 0 })).reason).toBe('busy');
    expect((await m.execute({ commandId: id(), type: 'cash_out' })).reason).toBe('busy');
    await spinning;
    while (m.state !== 'idle') await new Promise((res) => setTimeout(res, 5));
    await m.execute({ commandId: id(), type: 'set_fault', fault: 'malfunction' });
    expect(m.state).toBe('malfunction');
    expect((await m.execute({ commandId: id(), type: 'spin' })).reason).toBe('faulted');
    await m.execute({ commandId: id(), type: 'set_fault', fault: 'none' });
    expect(m.state).toBe('idle');
    m.dispose();
  });

  it('a cash out refused while a game lands runs when the server sends the same command again; a refused credit in stays refused', async () => {
    const m = newMachine({ machineId: 7, timing: FAST });
    await m.execute({ commandId: id(), type: 'credit_in', amountCents: 1000 });
    const spinning = m.execute({ commandId: id(), type: 'spin' });
    const cashOut = { commandId: id(), type: 'cash_out' } as const;
    expect((await m.execute(cashOut)).reason).toBe('busy');
    await spinning;
    while (m.state !== 'idle') await new Promise((res) => setTimeout(res, 5));
    const paid = await m.execute(cashOut);
    expect(paid.outcome).toBe('ok');
    expect(paid.duplicate).toBeFalsy();
    expect(paid.amountCents).toBeGreaterThan(0);
    // Sent once more after it paid: the stored answer, not a second payment.
    expect(await m.execute(cashOut)).toMatchObject({ outcome: 'ok', duplicate: true, amountCents: paid.amountCents });

    await m.execute({ commandId: id(), type: 'credit_in', amountCents: 500 });
    const again = m.execute({ commandId: id(), type: 'spin' });
    const creditIn = { commandId: id(), type: 'credit_in', amountCents: 100 } as const;
    await m.execute({ commandId: id(), type: 'set_fault', fault: 'malfunction' });
    expect((await m.execute(creditIn)).reason).toBe('faulted');
    await again;
    await m.execute({ commandId: id(), type: 'set_fault', fault: 'none' });
    expect(await m.execute(creditIn)).toMatchObject({ outcome: 'rejected', duplicate: true });
    m.dispose();
  });

  it('three scatters start the free-spin bonus; free spins pay double and cost nothing', async () => {
    const trigger = findStops((ev) => ev.scatterCount === 3);
    const plain = findStops((ev) => ev.scatterCount === 0 && ev.linePay > 0);
    const m = newMachine({
      machineId: 5,
      timing: FAST,
      rng: new Rng(
        scripted(
          trigger,
          Array.from({ length: FREE_SPINS_AWARD }, () => plain),
        ),
      ),
    });
    const cycles: GameCycle[] = [];
    const states: AgentMachineState[] = [];
    m.on('cycle', (c) => cycles.push(c));
    m.on('state', (s) => states.push(s.state));
    await m.execute({ commandId: id(), type: 'credit_in', amountCents: 1000 });
    const r = await m.execute({ commandId: id(), type: 'spin' });
    expect(r.cycle!.freeSpinsAwarded).toBe(FREE_SPINS_AWARD);
    expect(r.cycle!.scatterWinCents).toBe(2 * 20);
    while (m.state !== 'idle') await new Promise((res) => setTimeout(res, 5));
    const free = cycles.filter((c) => c.freeSpin);
    expect(free).toHaveLength(FREE_SPINS_AWARD);
    const plainPay = evaluateStops(plain).linePay;
    for (const c of free) {
      expect(c.betCents).toBe(0);
      expect(c.winCents).toBe(plainPay * 1 * 2);
    }
    expect(free.at(-1)!.freeSpinsLeft).toBe(0);
    expect(states).toContain('in_bonus');
    expect(m.meters.freeGamesPlayed).toBe(FREE_SPINS_AWARD);
    expect(m.meters.bonusTriggers).toBe(1);
    expect(m.meters.coinInCents).toBe(20);
    m.dispose();
  });

  it('autoplay keeps spinning until turned off; stop slams the reels', async () => {
    const m = newMachine({ machineId: 6, timing: { ...FAST, spinDurationMs: 2000 } });
    await m.execute({ commandId: id(), type: 'credit_in', amountCents: 10_000 });
    await m.execute({ commandId: id(), type: 'autoplay', on: true });
    await new Promise((res) => setTimeout(res, 30));
    expect(m.state === 'in_game' || m.state === 'in_bonus').toBe(true);
    const t0 = Date.now();
    await m.execute({ commandId: id(), type: 'stop' });
    expect(m.meters.autoplay).toBe(false);
    expect(m.meters.gamesPlayed).toBe(1);
    if (m.state === 'in_game') await new Promise((res) => setTimeout(res, 5));
    expect(Date.now() - t0).toBeLessThan(1000);
    m.dispose();
  });
});
