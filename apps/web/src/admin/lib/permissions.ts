import type { OperatorView } from '@reel/protocol';
import { OperatorRole } from './contract';

/**
 * Admin-only actions (money corrections, a player's password and PIN) are hidden from staff for convenience
 * only: the server decides every action and answers 403 (40304) to a role it does not allow.
 */
export const isAdmin = (operator: OperatorView | null): boolean => operator?.role === OperatorRole.Admin;
