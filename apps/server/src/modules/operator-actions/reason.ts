/** Every operator action says why: the reason goes into the audit trail; a blank one is 40003. */
import { Code } from '@reel/protocol';
import { AppError } from '../../lib/errors.js';

export function requireReason(reason: string | undefined): string {
  const trimmed = reason?.trim();
  if (!trimmed) throw new AppError(Code.ReasonRequired, 400);
  return trimmed;
}
