/** What the server asks player protection before a game starts on a session's machine. */
import type { Db } from '../../db/pool.js';
import type { Protection } from '../protection/protection.js';
import type { LiveSession } from './live-session.js';
import type { CabinetPort } from './types.js';

export interface SpinCheckKit {
  db: Db;
  cabinets: CabinetPort;
  protection: Protection;
}

/**
 * Throws the refusal (protection.ts `checkSpin`) for the machine's current bet; a free spin's bet
 * counts 0. Asked before a spin or turning autoplay on, and after each game autoplay played.
 */
export async function checkSpinAllowed(kit: SpinCheckKit, live: LiveSession, kind: 'spin' | 'autoplay') {
  const meters = kit.cabinets.get(live.machineId)?.meters;
  const betCents = meters && meters.freeSpinsLeft === 0 ? meters.betCents : 0;
  await kit.protection.checkSpin(kit.db, { kind, playerId: live.playerId, sessionId: live.id, betCents, sessionStartedAt: live.startedAt });
}
