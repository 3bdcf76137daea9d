/** When each play control may be used, as pure functions the controls and their tests share. */
import { isPlayableCabinetState, type MachineView, type VideoType } from '@reel/protocol/client';

export interface PlayContext {
  joined: boolean;
  videoUp: boolean;
  moneyTransfer: boolean;
  machine: MachineView | null;
  spinPending: boolean;
  autoplay: boolean;
}

export const BlockReason = {
  Connecting: 'connecting',
  Video: 'video',
  /** The machine's video cannot start (MachineView.videoError): no play until it can. */
  VideoUnavailable: 'videoUnavailable',
  /** Staff hold the machine with an emergency stop (MachineView.emergencyStop): nothing moves until released. */
  EmergencyStop: 'emergencyStop',
  MoneyTransfer: 'moneyTransfer',
  NoCredits: 'noCredits',
  Busy: 'busy',
  Machine: 'machine',
  Autoplay: 'autoplay',
  Limit: 'limit',
  Wallet: 'wallet',
} as const;
export type BlockReason = (typeof BlockReason)[keyof typeof BlockReason];

/** null: the control may be used; otherwise why not (shown as the control's hint). */
export type Rule = BlockReason | null;

function common(ctx: PlayContext): Rule {
  if (!ctx.joined || !ctx.machine) return BlockReason.Connecting;
  if (ctx.machine.emergencyStop !== undefined) return BlockReason.EmergencyStop;
  if (ctx.machine.videoError !== undefined) return BlockReason.VideoUnavailable;
  if (!isPlayableCabinetState(ctx.machine.cabinetState)) return BlockReason.Machine;
  // Play without a picture is play blind: the player must see the reels they pay for.
  if (!ctx.videoUp) return BlockReason.Video;
  if (ctx.moneyTransfer) return BlockReason.MoneyTransfer;
  return null;
}

export function spinRule(ctx: PlayContext): Rule {
  const blocked = common(ctx);
  if (blocked) return blocked;
  const machine = ctx.machine!;
  if (ctx.autoplay) return BlockReason.Autoplay;
  if (ctx.spinPending || machine.cabinetState !== 'idle') return BlockReason.Busy;
  if (machine.freeSpinsLeft === 0 && machine.creditsCents < Math.max(machine.betCents, 1))
    return BlockReason.NoCredits;
  return null;
}

export function betRule(ctx: PlayContext): Rule {
  const blocked = common(ctx);
  if (blocked) return blocked;
  // The cabinet changes its bet only between games.
  if (ctx.autoplay) return BlockReason.Autoplay;
  if (ctx.spinPending || ctx.machine!.cabinetState !== 'idle') return BlockReason.Busy;
  return null;
}

export function autoplayRule(ctx: PlayContext): Rule {
  const blocked = common(ctx);
  if (blocked) return blocked;
  // Turning autoplay off is always allowed; turning it on needs money for a spin.
  if (ctx.autoplay) return null;
  const machine = ctx.machine!;
  if (machine.creditsCents < Math.max(machine.betCents, 1)) return BlockReason.NoCredits;
  return null;
}

interface CashInContext extends PlayContext {
  amountCents: number;
  walletCents: number | null;
  maxAllInCents: number;
}

/** Hot coins: never past MAX_ALL_IN_LIMIT on the machine, never more than the wallet holds. */
export function cashInRule(ctx: CashInContext): Rule {
  const blocked = common(ctx);
  if (blocked) return blocked;
  if (ctx.machine!.creditsCents + ctx.amountCents > ctx.maxAllInCents) return BlockReason.Limit;
  if (ctx.walletCents === null || ctx.walletCents < ctx.amountCents) return BlockReason.Wallet;
  return null;
}

/** Cash out stays possible without video: a player must always be able to take the money back. */
export function cashOutRule(ctx: PlayContext): Rule {
  if (!ctx.joined || !ctx.machine) return BlockReason.Connecting;
  // The stopped cabinet refuses it too: cash out comes back once staff release the stop.
  if (ctx.machine.emergencyStop !== undefined) return BlockReason.EmergencyStop;
  if (ctx.moneyTransfer) return BlockReason.MoneyTransfer;
  if (ctx.machine.creditsCents <= 0) return BlockReason.NoCredits;
  if (ctx.machine.cabinetState === 'in_game' || ctx.spinPending) return BlockReason.Busy;
  return null;
}

/** Bet level after a step up (+1) or down (-1); the bet button cycles from the top back to 0. */
export function nextBetLevel(levelCount: number, current: number, step: 1 | -1, wrap = false): number {
  if (levelCount <= 0) return 0;
  const next = current + step;
  if (next >= levelCount) return wrap ? 0 : levelCount - 1;
  if (next < 0) return wrap ? levelCount - 1 : 0;
  return next;
}

export const LatencyQuality = { Good: 'good', Fair: 'fair', Poor: 'poor' } as const;
export type LatencyQuality = (typeof LatencyQuality)[keyof typeof LatencyQuality];
const LATENCY_GOOD_MS = 150;
const LATENCY_FAIR_MS = 400;

export function latencyQuality(latencyMs: number): LatencyQuality {
  if (latencyMs <= LATENCY_GOOD_MS) return LatencyQuality.Good;
  if (latencyMs <= LATENCY_FAIR_MS) return LatencyQuality.Fair;
  return LatencyQuality.Poor;
}

/** Elapsed play time as m:ss or h:mm:ss (responsible gaming display). */
export function formatElapsed(elapsedMs: number): string {
  const total = Math.max(0, Math.floor(elapsedMs / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/**
 * iPhone, iPod and iPad cannot take an element fullscreen; there the game fills the window instead.
 * iPadOS 13 and later say they are a Mac ("Macintosh" in the user agent); no Mac has a touch
 * screen, so a "Mac" with more than one touch point is an iPad.
 */
export function isAppleHandheld(userAgent: string, maxTouchPoints = 0): boolean {
  return /iPhone|iPod|iPad/i.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);
}

/** This browser is an Apple handheld (see isAppleHandheld). */
export function onAppleHandheld(): boolean {
  return isAppleHandheld(navigator.userAgent, navigator.maxTouchPoints ?? 0);
}

/**
 * The game view state's `layout` (spec section 3): how the screen is held. The screen-rotate toggle
 * and the rotated video follow it (docs/spec-decisions.md).
 */
export type GameLayout = 'portrait' | 'landscape';

/** Spec section 2: the rotate toggle only in portrait, and hidden while the video type is camera. */
export function rotateAvailable(layout: GameLayout, videoType: VideoType): boolean {
  return layout === 'portrait' && videoType !== 'camera';
}

/**
 * The win the screen celebrates, or null: with NO_FALSE_WIN_CELEBRATION on, a win that is not more
 * than the stake (a loss dressed as a win) is not celebrated.
 */
export function celebratedWin(cycle: { winCents: number; betCents: number } | null, noFalseWin: boolean): number | null {
  if (!cycle || cycle.winCents <= 0) return null;
  if (noFalseWin && cycle.winCents <= cycle.betCents) return null;
  return cycle.winCents;
}
