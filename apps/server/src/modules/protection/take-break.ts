/**
 * A player takes a break (cool-off or self-exclusion): recorded first (from then on every sign-in
 * channel is refused), then every token revoked and the player's sockets closed, then the credits
 * on any machine cashed out to the wallet and the session closed.
 */
import { Code, type BreakPeriod, type PlayerBreak } from '@reel/protocol';
import { Topic, type Bus } from '../../lib/bus.js';
import { asAppError } from '../../lib/errors.js';
import type { TokenService } from '../auth/tokens.js';
import type { SessionService } from '../sessions/types.js';
import type { PlayerBreaks } from './player-breaks.js';

export interface BreakRoad {
  breaks: PlayerBreaks;
  tokens: Pick<TokenService, 'revokeAll'>;
  bus: Bus;
  sessions: Pick<SessionService, 'leave'>;
}

export async function takeBreak(road: BreakRoad, playerId: number, period: BreakPeriod): Promise<PlayerBreak> {
  const taken = await road.breaks.take(playerId, period);
  await road.tokens.revokeAll(playerId);
  // The game and notification channels close this player's sockets (in a cluster, on every server);
  // the notification channel's logout says until when.
  const refusal = await road.breaks.refusal(playerId);
  road.bus.publish(Topic.tokenRevoked, { playerId, code: refusal?.code, params: refusal?.params });
  try {
    await road.sessions.leave(playerId);
  } catch (error) {
    // No open session: nothing is on a machine.
    if (asAppError(error)?.code !== Code.NoOpenSession) throw error;
  }
  return taken;
}
