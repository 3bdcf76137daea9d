/**
 * The console's view of a player's protection (issue 28 on the issue 27 console): the limits as they
 * apply now and every break, and an admin's early end of a self-exclusion (paths in admin.ts
 * `AdminPath`). Field names follow the player's own protection contract (rest-protection.ts).
 */
import { Type, type Static } from 'typebox';
import { IsoDate, Nullable } from './rest-fields.js';
import { PlayerBreak, PlayerLimit } from './rest-protection.js';
import { AdminResult } from './admin-fields.js';

/** A break as staff see it: in force or not, and how it ended. */
export const AdminPlayerBreak = Type.Object(
  {
    ...PlayerBreak.properties,
    id: Type.Integer(),
    active: Type.Boolean({ description: 'In force now: sign-in is refused (40310 or 40311)' }),
    endedEarlyAt: Nullable(IsoDate('When an admin ended it early; null: it ran (or runs) to endsAt')),
    endedBy: Nullable(Type.String({ description: 'The username of the admin who ended it early' })),
    endReason: Nullable(Type.String({ description: 'Why it was ended early (also in the audit trail)' })),
  },
  { $id: 'AdminPlayerBreak' },
);
export type AdminPlayerBreak = Static<typeof AdminPlayerBreak>;

/**
 * `GET /admin/players/:id/protection`, and the answer of ending a self-exclusion: every limit key
 * (value, used now, when it resets, a raise waiting) and every break, newest first.
 */
export const AdminPlayerProtection = AdminResult(
  {
    limits: Type.Array(PlayerLimit),
    breaks: Type.Array(AdminPlayerBreak),
  },
  'AdminPlayerProtection',
);
export type AdminPlayerProtection = Static<typeof AdminPlayerProtection>;
