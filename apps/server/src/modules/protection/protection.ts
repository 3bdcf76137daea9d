/**
 * Player protection (issue 28), built once per server: the rooms the session rooms and the routes
 * ask. Each part takes the database, the runtime settings and the clock (tests pass their own).
 */
import { PlayerLimits, type ProtectionDeps } from './player-limits.js';

export interface Protection {
  limits: PlayerLimits;
}

export function createProtection(deps: ProtectionDeps): Protection {
  return { limits: new PlayerLimits(deps) };
}

