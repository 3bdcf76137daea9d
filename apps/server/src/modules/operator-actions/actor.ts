/**
 * The staff member behind a console request. STAND-IN until the core's operator accounts land
 * (branch admin-server): today a staff route's caller is a signed-in account with the staff or
 * admin role, read from its token claims.
 */
import { Role, type TokenClaims } from '@reel/protocol';

export interface StaffActor {
  id: number;
  username: string;
  name: string;
  admin: boolean;
}

export function staffActor(auth: TokenClaims): StaffActor {
  return {
    id: auth.id,
    username: auth.username,
    name: `${auth.name ?? ''} ${auth.lastname ?? ''}`.trim() || auth.username,
    admin: auth.role.includes(Role.Admin),
  };
}

/** How the audit trail names a console actor (AUDIT_ACTOR_PREFIX in the admin contract). */
export const auditActor = (staff: StaffActor) => `operator:${staff.username}`;
