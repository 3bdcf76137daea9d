/**
 * "Back" after a kill means back for a player: play (a spin sent after the kill is answered with
 * its game) and video (the machine that keeps its video sends RTP to a new WHEP viewer again).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { attachWhepViewer } from '../video/whep-viewer.js';
import type { HistoryOp } from './history.js';
import type { ChaosPlayer } from './player.js';

/** When the first spin sent at or after `since` was acknowledged; null by the deadline. */
export async function playBack(history: readonly HistoryOp[], since: number, deadline: number): Promise<number | null> {
  while (Date.now() < deadline) {
    let first: number | null = null;
    for (const op of history) if (op.type === 'spin' && op.sentAt >= since && op.ackedAt !== undefined) first = Math.min(first ?? op.ackedAt, op.ackedAt);
    if (first !== null) return first;
    await sleep(250);
  }
  return null;
}

/** When a new viewer of the video player's machine first received RTP; null by the deadline. */
export async function videoBack(player: ChaosPlayer, baseUrl: string, deadline: number): Promise<number | null> {
  while (Date.now() < deadline) {
    const grant = await player.requestStream();
    if (!grant) {
      await sleep(1_000);
      continue;
    }
    try {
      const viewer = await attachWhepViewer(new URL(grant.whepUrl, baseUrl).toString(), grant.grant);
      try {
        for (let i = 0; i < 40 && viewer.counter.packets === 0; i++) await sleep(100);
        if (viewer.counter.packets > 0) return Date.now();
      } finally {
        await viewer.close();
      }
    } catch {
      // media not back yet
    }
    await sleep(1_000);
  }
  return null;
}
