import type { MachineView } from '@reel/protocol/client';
import { describe, expect, it } from 'vitest';
import {
  autoplayRule,
  celebratedWin,
  betRule,
  BlockReason,
  cashInRule,
  cashOutRule,
  formatElapsed,
  isAppleHandheld,
  latencyQuality,
  nextBetLevel,
  rotateAvailable,
  spinRule,
  type PlayContext,
} from './game-rules';

const machine = (over: Partial<MachineView> = {}): MachineView => ({
  machineId: 1,
  cabinetState: 'idle',
  creditsCents: 5000,
  betCents: 100,
  betLevel: 2,
  autoplay: false,
  freeSpinsLeft: 0,
  videoType: 'screen',
  ...over,
});
const ctx = (over: Partial<PlayContext> = {}): PlayContext => ({
  joined: true,
  videoUp: true,
  moneyTransfer: false,
  machine: machine(),
  spinPending: false,
  autoplay: false,
  ...over,
});

describe('play rules', () => {
  it('an emergency stop blocks every play and money control and says so', () => {
    const stopped = ctx({ machine: machine({ emergencyStop: 'smoke from cabinet' }) });
    expect(spinRule(stopped)).toBe(BlockReason.EmergencyStop);
    expect(betRule(stopped)).toBe(BlockReason.EmergencyStop);
    expect(autoplayRule(stopped)).toBe(BlockReason.EmergencyStop);
    expect(cashOutRule(stopped)).toBe(BlockReason.EmergencyStop);
    expect(cashInRule({ ...stopped, amountCents: 100, walletCents: 10_000, maxAllInCents: 100_000 })).toBe(BlockReason.EmergencyStop);
    expect(spinRule(ctx())).toBeNull();
  });

  it('spin needs a joined channel, live video, credits for the bet and an idle machine', () => {
    expect(spinRule(ctx())).toBeNull();
    expect(spinRule(ctx({ joined: false }))).toBe(BlockReason.Connecting);
    expect(spinRule(ctx({ videoUp: false }))).toBe(BlockReason.Video);
    expect(spinRule(ctx({ moneyTransfer: true }))).toBe(BlockReason.MoneyTransfer);
    expect(spinRule(ctx({ machine: machine({ creditsCents: 99 }) }))).toBe(BlockReason.NoCredits);
    expect(spinRule(ctx({ machine: machine({ creditsCents: 0, freeSpinsLeft: 3 }) }))).toBeNull();
    expect(spinRule(ctx({ machine: machine({ cabinetState: 'in_game' }) }))).toBe(BlockReason.Busy);
    expect(spinRule(ctx({ spinPending: true }))).toBe(BlockReason.Busy);
    expect(spinRule(ctx({ autoplay: true }))).toBe(BlockReason.Autoplay);
    expect(spinRule(ctx({ machine: machine({ cabinetState: 'malfunction' }) }))).toBe(BlockReason.Machine);
  });

  it('a machine whose video cannot start (videoError 70000) blocks play but not cash out', () => {
    const failed = machine({ cabinetState: 'error', videoError: 70000 });
    for (const rule of [spinRule, betRule, autoplayRule])
      expect(rule(ctx({ machine: failed, videoUp: false }))).toBe(BlockReason.VideoUnavailable);
    expect(
      cashInRule({
        ...ctx({ machine: failed }),
        amountCents: 500,
        walletCents: 10_000,
        maxAllInCents: 100_000,
      }),
    ).toBe(BlockReason.VideoUnavailable);
    expect(cashOutRule(ctx({ machine: failed, videoUp: false }))).toBeNull();
  });

  it('bet changes only between games; autoplay can always be turned off', () => {
    expect(betRule(ctx())).toBeNull();
    expect(betRule(ctx({ machine: machine({ cabinetState: 'in_game' }) }))).toBe(BlockReason.Busy);
    expect(autoplayRule(ctx({ machine: machine({ creditsCents: 0 }) }))).toBe(BlockReason.NoCredits);
    expect(autoplayRule(ctx({ autoplay: true, machine: machine({ creditsCents: 0 }) }))).toBeNull();
    expect(autoplayRule(ctx({ videoUp: false }))).toBe(BlockReason.Video);
  });

  it('a hot coin is refused above MAX_ALL_IN_LIMIT and when the wallet cannot pay', () => {
    const base = { ...ctx(), maxAllInCents: 10_000, walletCents: 20_000 };
    expect(cashInRule({ ...base, amountCents: 5000 })).toBeNull();
    expect(cashInRule({ ...base, amountCents: 5001 })).toBe(BlockReason.Limit);
    expect(cashInRule({ ...base, amountCents: 500, walletCents: 499 })).toBe(BlockReason.Wallet);
    expect(cashInRule({ ...base, amountCents: 500, walletCents: null })).toBe(BlockReason.Wallet);
    expect(cashInRule({ ...base, amountCents: 500, moneyTransfer: true })).toBe(BlockReason.MoneyTransfer);
  });

  it('cash out works without video but needs credits and a machine between games', () => {
    expect(cashOutRule(ctx({ videoUp: false }))).toBeNull();
    expect(cashOutRule(ctx({ machine: machine({ creditsCents: 0 }) }))).toBe(BlockReason.NoCredits);
    expect(cashOutRule(ctx({ machine: machine({ cabinetState: 'in_game' }) }))).toBe(BlockReason.Busy);
    expect(cashOutRule(ctx({ moneyTransfer: true }))).toBe(BlockReason.MoneyTransfer);
  });

  it('bet levels step and cycle', () => {
    expect(nextBetLevel(6, 2, 1)).toBe(3);
    expect(nextBetLevel(6, 5, 1)).toBe(5);
    expect(nextBetLevel(6, 5, 1, true)).toBe(0);
    expect(nextBetLevel(6, 0, -1)).toBe(0);
    expect(nextBetLevel(6, 0, -1, true)).toBe(5);
    expect(nextBetLevel(0, 0, 1)).toBe(0);
  });

  it('formats elapsed time and grades latency', () => {
    expect(formatElapsed(0)).toBe('0:00');
    expect(formatElapsed(65_400)).toBe('1:05');
    expect(formatElapsed(3_725_000)).toBe('1:02:05');
    expect(latencyQuality(80)).toBe('good');
    expect(latencyQuality(300)).toBe('fair');
    expect(latencyQuality(900)).toBe('poor');
  });

  it('knows the devices without element fullscreen', () => {
    expect(isAppleHandheld('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)')).toBe(true);
    expect(isAppleHandheld('Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)')).toBe(true);
    expect(isAppleHandheld('Mozilla/5.0 (X11; Linux x86_64) Chrome/140')).toBe(false);
  });

  it('knows iPadOS 13+, which says it is a Mac, by its touch points; a real Mac stays a Mac', () => {
    const desktopClassSafari = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
    expect(isAppleHandheld(desktopClassSafari, 5)).toBe(true);
    expect(isAppleHandheld(desktopClassSafari, 0)).toBe(false);
    expect(isAppleHandheld(desktopClassSafari)).toBe(false);
    expect(isAppleHandheld('Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/140', 10)).toBe(false);
  });
});

describe('the game view state layout', () => {
  it('offers the rotate toggle only in the portrait layout, and not while the camera shows', () => {
    expect(rotateAvailable('portrait', 'screen')).toBe(true);
    expect(rotateAvailable('portrait', 'camera')).toBe(false);
    expect(rotateAvailable('landscape', 'screen')).toBe(false);
  });
});

describe('celebratedWin (NO_FALSE_WIN_CELEBRATION)', () => {
  it('celebrates any win when off, only a win above the stake when on', () => {
    expect(celebratedWin({ winCents: 100, betCents: 100 }, false)).toBe(100);
    expect(celebratedWin({ winCents: 100, betCents: 100 }, true)).toBeNull();
    expect(celebratedWin({ winCents: 101, betCents: 100 }, true)).toBe(101);
    expect(celebratedWin({ winCents: 0, betCents: 100 }, false)).toBeNull();
    expect(celebratedWin(null, true)).toBeNull();
  });
});
