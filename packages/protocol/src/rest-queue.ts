/**
 * The queue for a busy machine (issue 29): the player's one live entry, as `GET/POST/DELETE
 * /player/queue` answer it and the notification channel's `queue` event pushes it. Paths in
 * paths.ts; the rules in docs/sessions.md, "The queue".
 */
import { Type, type Static } from 'typebox';
import { IsoDate, Nullable } from './rest-fields.js';
import { Int4 } from './text.js';

/** The ready check: the seat is held for the player until `until`. */
export const QueueReadyCheck = Type.Object(
  {
    until: IsoDate('When the seat stops being held for the player'),
    remainingMs: Type.Integer({
      description:
        'Milliseconds left when the server sent this (the client counts from receipt: no clock skew)',
    }),
  },
  { additionalProperties: false },
);

export const QueueEntry = Type.Object(
  {
    machineId: Type.Integer(),
    machineName: Type.String(),
    position: Type.Integer({ minimum: 1, description: '1: first in line' }),
    length: Type.Integer({ minimum: 1, description: "Players in this machine's queue" }),
    etaS: Type.Integer({ minimum: 0, description: "Estimated seconds until the player's turn" }),
    ready: Nullable(QueueReadyCheck),
  },
  { $id: 'QueueEntry', additionalProperties: false },
);
export type QueueEntry = Static<typeof QueueEntry>;

export const QueueResponse = Type.Object(
  { status: Type.Boolean(), code: Type.Integer(), entry: Nullable(QueueEntry) },
  { $id: 'QueueResponse' },
);
export type QueueResponse = Static<typeof QueueResponse>;

export const QueueJoinRequest = Type.Object({ machineId: Int4({ minimum: 1 }) }, { $id: 'QueueJoinRequest' });
export type QueueJoinRequest = Static<typeof QueueJoinRequest>;

/** Why an entry ended, in the push that says it ended. */
export const QueueEndReason = Type.Union([
  Type.Literal('left'),
  Type.Literal('passed'),
  Type.Literal('seated'),
  Type.Literal('removed'),
]);
export type QueueEndReason = Static<typeof QueueEndReason>;
