/**
 * The public part of a game, for spectators: bet, win, free spin, jackpot. Never the player's
 * name, balance, credits or address: a spectator's page is built from this and the video alone.
 * Published on the bus by whichever server records the game, so spectators on any server get it.
 */
import type { PublicPlay } from '@reel/protocol';
import type { Bus } from '../../lib/bus.js';

export const playTopic = (machineId: number) => `watch.play.${machineId}`;

export function publishPublicPlay(
  bus: Bus,
  machineId: number,
  cycle: { gameId: string; betCents: number; winCents: number; freeSpin: boolean; jackpotHit: boolean },
): void {
  const play: PublicPlay = {
    machineId,
    gameId: cycle.gameId,
    betCents: cycle.betCents,
    winCents: cycle.winCents,
    freeSpin: cycle.freeSpin,
    jackpotHit: cycle.jackpotHit,
    at: new Date().toISOString(),
  };
  bus.publish(playTopic(machineId), play);
}
