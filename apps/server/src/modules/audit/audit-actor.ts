/** Who and why, as every audited action states them. */
import os from 'node:os';
import { AUDIT_ACTOR_PREFIX, Code, type OperatorClaims } from '@reel/protocol';
import { AppError } from '../../lib/errors.js';

/** The reason an operator gave, trimmed; none or blank is the catalogue's 40003. */
export function requireReason(reason: string | undefined): string {
  const trimmed = reason?.trim() ?? '';
  if (!trimmed) throw new AppError(Code.ReasonRequired, 400);
  return trimmed;
}

export const operatorActor = (operator: Pick<OperatorClaims, 'username'>) => `${AUDIT_ACTOR_PREFIX.operator}${operator.username}`;

/** The command line's actor: the OS user who ran `npm run operator`. */
export function cliActor(): string {
  let user = process.env.SUDO_USER || process.env.USER || '';
  try {
    user ||= os.userInfo().username;
  } catch {
    user ||= 'unknown';
  }
  return `${AUDIT_ACTOR_PREFIX.cli}${user}`;
}
