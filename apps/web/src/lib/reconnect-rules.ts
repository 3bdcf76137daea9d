/**
 * The reconnect dialog's one rule (spec section 4): its wording and its choices follow what the
 * cabinet is doing. Both screens that meet an open session (the lobby and the game screen) show
 * the same dialog (`components/reconnect-dialog.tsx`) with these choices.
 */
export type ReconnectVariant = 'in_bonus' | 'waiting' | 'cashing_out' | 'in_game' | 'error' | 'offline' | 'unknown';

/**
 * `continue` rejoins, `cashout` rejoins and cashes out, `cancel` posts a cancel and rejoins, `kick`
 * takes the machine back from whoever plays it, `wait` leaves the session as it is (the machine is
 * busy or broken: nothing the player does helps).
 */
export type ReconnectAction = 'continue' | 'cashout' | 'cancel' | 'kick' | 'wait';

export function reconnectVariant(machineStatus: string): ReconnectVariant {
  switch (machineStatus) {
    case 'in_bonus':
      return 'in_bonus';
    case 'idle':
    case 'waiting':
      return 'waiting';
    case 'cashing_out':
      return 'cashing_out';
    case 'in_game':
      return 'in_game';
    case 'error':
    case 'malfunction':
      return 'error';
    case 'offline':
      return 'offline';
    default:
      return 'unknown';
  }
}

/**
 * The machine waits for the player (a bonus game or idle): continue, cash out, or cancel and join
 * again. It is being played: kick (contact support if that is not you). It is cashing out, broken,
 * offline or unknown: only waiting (besides going back to the lobby, which every dialog offers).
 */
const ACTIONS: Record<ReconnectVariant, readonly ReconnectAction[]> = {
  in_bonus: ['cancel', 'cashout', 'continue'],
  waiting: ['cancel', 'cashout', 'continue'],
  in_game: ['kick'],
  cashing_out: ['wait'],
  error: ['wait'],
  offline: ['wait'],
  unknown: ['wait'],
};

export function reconnectActions(variant: ReconnectVariant): readonly ReconnectAction[] {
  return ACTIONS[variant];
}
