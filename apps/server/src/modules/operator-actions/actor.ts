/** The operator behind a console request, as the floor, hand pay and support chat features name them. */
import { OperatorRole, type OperatorClaims } from '@reel/protocol';
import { operatorActor } from '../audit/audit-actor.js';

export interface StaffActor {
  id: number;
  username: string;
  admin: boolean;
  /** How the audit trail names them: `operator:<username>`. */
  actor: string;
}

export function staffActor(operator: OperatorClaims): StaffActor {
  return { id: operator.id, username: operator.username, admin: operator.role === OperatorRole.Admin, actor: operatorActor(operator) };
}
